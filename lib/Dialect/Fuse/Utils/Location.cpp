//===- Location.cpp - locations as compilers print them ------------------===//

#include "fuse/Dialect/Fuse/Utils/Location.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

std::string fuse::formatLocation(Location loc) {
  if (auto file = dyn_cast<FileLineColLoc>(loc))
    return (file.getFilename().getValue() + ":" + Twine(file.getLine()) + ":" +
            Twine(file.getColumn()))
        .str();
  if (auto name = dyn_cast<NameLoc>(loc))
    return formatLocation(name.getChildLoc());
  std::string text;
  llvm::raw_string_ostream os(text);
  os << loc;
  return text;
}
