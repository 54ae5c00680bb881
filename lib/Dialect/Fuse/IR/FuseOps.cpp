//===- FuseOps.cpp - fuse dialect operations -----------------*- C++ -*-===//

#include "fuse/Dialect/Fuse/IR/FuseOps.h"
#include "fuse/Dialect/Fuse/IR/FuseScalar.h"
#include "fuse/Dialect/Fuse/Utils/Broadcast.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/Support/Error.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

using namespace mlir;
using namespace fuse;

/// Types in messages are written as in the source, without quotes.
static std::string str(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << type;
  return text;
}

//===----------------------------------------------------------------------===//
// Broadcasting
//===----------------------------------------------------------------------===//

RankedTensorType fuse::inferBroadcastType(TypeRange operands,
                                          Type elementType) {
  if (operands.empty())
    return {};
  SmallVector<int64_t> shape;
  for (Type type : operands) {
    auto tensor = dyn_cast<RankedTensorType>(type);
    if (!tensor)
      return {};
    std::optional<SmallVector<int64_t>> next =
        broadcastShapes(shape, tensor.getShape());
    if (!next)
      return {};
    shape = std::move(*next);
  }
  if (!elementType)
    elementType = cast<RankedTensorType>(operands.front()).getElementType();
  return RankedTensorType::get(shape, elementType);
}

LogicalResult fuse::verifyKnownAttributes(Operation *op) {
  for (NamedAttribute attr : op->getDiscardableAttrs()) {
    if (attr.getName().getValue().contains('.'))
      continue;
    llvm::ArrayRef<StringAttr> known = op->getName().getAttributeNames();
    InFlightDiagnostic diag = op->emitOpError()
                              << "has no attribute '"
                              << attr.getName().getValue() << "'";
    if (known.empty())
      return diag << " (it takes none)";
    diag << " (it takes ";
    llvm::interleaveComma(known, diag, [&](StringAttr name) {
      diag << "'" << name.getValue() << "'";
    });
    return diag << ")";
  }
  return success();
}

std::optional<std::string> fuse::encodingProblem(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || !tensor.getEncoding())
    return std::nullopt;
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "has type " << str(type) << ", with an encoding ("
     << tensor.getEncoding() << "); fuse compiles tensors without one";
  return text;
}

LogicalResult fuse::verifyPlainTensors(Operation *op) {
  auto check = [&](TypeRange types, StringRef what) -> LogicalResult {
    for (auto [index, type] : llvm::enumerate(types))
      if (std::optional<std::string> problem = encodingProblem(type))
        return op->emitOpError() << what << " " << index << " " << *problem;
    return success();
  };
  return failure(failed(check(op->getOperandTypes(), "operand")) ||
                 failed(check(op->getResultTypes(), "result")));
}

LogicalResult fuse::verifyBroadcastOperands(Operation *op) {
  // The condition of a select is i1 by its type constraint and takes part in
  // broadcasting only; the other operands carry the data.
  OperandRange data = op->getOperands();
  if (isa<SelectOp>(op))
    data = data.drop_front();
  Type element = cast<RankedTensorType>(data[0].getType()).getElementType();
  for (Value operand : data.drop_front()) {
    Type other = cast<RankedTensorType>(operand.getType()).getElementType();
    if (other != element)
      return op->emitOpError("operand element types differ: ")
             << str(element) << " vs " << str(other)
             << "; insert a fuse.cast to convert one of them";
  }

  auto operandTypes = llvm::to_vector(llvm::map_range(
      op->getOperandTypes(), [](Type t) { return cast<RankedTensorType>(t); }));
  for (size_t i = 0; i < operandTypes.size(); ++i) {
    for (size_t j = i + 1; j < operandTypes.size(); ++j) {
      BroadcastConflict conflict;
      if (broadcastShapes(operandTypes[i].getShape(),
                          operandTypes[j].getShape(), &conflict))
        continue;
      return op->emitOpError("operands are not broadcast-compatible: ")
             << str(operandTypes[i]) << " vs " << str(operandTypes[j])
             << " (dimension " << conflict.resultDim << ": " << conflict.lhsSize
             << " vs " << conflict.rhsSize << ")";
    }
  }

  auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
  Type resultElement = isa<CmpOp>(op) ? resultType.getElementType() : element;
  RankedTensorType inferred =
      inferBroadcastType(op->getOperandTypes(), resultElement);
  if (resultType != inferred)
    return op->emitOpError("declared result type ")
           << str(resultType) << " does not match the inferred type "
           << str(inferred);
  return success();
}

/// Binary op types: `t` when all three are equal, else `t0, t1 -> t2`.
/// The generic form's function type (`(T, T) -> T`) where the custom form
/// has its own: said, where the types then failed to match the operands
/// ("use of value '%a' expects different type than prior uses").
static ParseResult refuseFunctionType(OpAsmParser &parser, llvm::SMLoc loc,
                                      Type type, llvm::StringRef form) {
  if (!isa<FunctionType>(type))
    return success();
  return parser.emitError(loc)
         << "expected " << form << ", not a function type " << str(type)
         << " (the generic form's, with the op's name "
            "in quotes)";
}

/// Resolves `operand` to `type`, as the generated parser does next, with
/// `note` added to the parser's error when the value has another type: "use
/// of value '%b' expects different type than prior uses" says which types,
/// not what the op's form meant by the one it was given.
static ParseResult
resolveWithNote(OpAsmParser &parser,
                const OpAsmParser::UnresolvedOperand &operand, Type type,
                llvm::SMLoc at, llvm::StringRef note) {
  ScopedDiagnosticHandler handler(parser.getContext(), [&](Diagnostic &diag) {
    std::string message = diag.str();
    if (diag.getSeverity() == DiagnosticSeverity::Error &&
        StringRef(message).starts_with("use of value '") &&
        StringRef(message).contains("expects different type"))
      diag.attachNote(parser.getEncodedSourceLoc(at)) << note;
    return failure();
  });
  SmallVector<Value, 1> values;
  return parser.resolveOperand(operand, type, values);
}

static ParseResult
parseBroadcastTypes(OpAsmParser &parser,
                    const OpAsmParser::UnresolvedOperand &lhsOperand,
                    const OpAsmParser::UnresolvedOperand &rhsOperand, Type &lhs,
                    Type &rhs, Type &result) {
  llvm::SMLoc at = parser.getCurrentLocation();
  if (parser.parseType(lhs) ||
      refuseFunctionType(parser, at, lhs,
                         "`lhs-type, rhs-type -> result-type`, or one type "
                         "when all three are equal"))
    return failure();
  if (failed(parser.parseOptionalComma())) {
    // `t -> t2`: a result type without the right operand's.
    llvm::SMLoc arrow = parser.getCurrentLocation();
    if (succeeded(parser.parseOptionalArrow()))
      return parser.emitError(arrow)
             << "expected ',' and the right operand's type before '->' "
                "(`lhs-type, rhs-type -> result-type`, or one type when "
                "all three are equal)";
    rhs = result = lhs;
    llvm::StringRef note =
        "the short form's one type is both operands' and the result's; "
        "operands of other types take `lhs-type, rhs-type -> result-type`";
    return failure(resolveWithNote(parser, lhsOperand, lhs, at, note) ||
                   resolveWithNote(parser, rhsOperand, rhs, at, note));
  }
  return failure(parser.parseType(rhs) || parser.parseArrow() ||
                 parser.parseType(result));
}

/// `A to B`. Without `to`, the error is at A (the next token, where the
/// generic parser pointed, may be the next line's `return`).
static ParseResult parseCastTypes(OpAsmParser &parser,
                                  const OpAsmParser::UnresolvedOperand &operand,
                                  Type &input, Type &result) {
  llvm::SMLoc at = parser.getCurrentLocation();
  if (parser.parseType(input) ||
      resolveWithNote(parser, operand, input, at,
                      "the type before `to` is the operand's (`fuse.cast %x "
                      ": A to B` converts x of type A to B)"))
    return failure();
  if (failed(parser.parseOptionalKeyword("to")))
    return parser.emitError(at) << "expected 'to' and the result type after "
                                << str(input) << " (`fuse.cast %x : A to B`)";
  return parser.parseType(result);
}

static void printCastTypes(OpAsmPrinter &printer, Operation *, Value,
                           Type input, Type result) {
  printer << input << " to " << result;
}

static void printBroadcastTypes(OpAsmPrinter &printer, Operation *, Value,
                                Value, Type lhs, Type rhs, Type result) {
  if (lhs == rhs && rhs == result) {
    printer << lhs;
    return;
  }
  printer << lhs << ", " << rhs << " -> " << result;
}

//===----------------------------------------------------------------------===//
// Unary ops
//===----------------------------------------------------------------------===//

/// `does not fit in iN: fuse's integers are signed, from MIN to MAX`, the
/// end of every error of an integer literal or attribute past its type.
static std::string doesNotFit(unsigned width) {
  return " does not fit in i" + std::to_string(width) +
         ": fuse's integers are signed, from " +
         llvm::toString(APInt::getSignedMinValue(width), 10, true) + " to " +
         llvm::toString(APInt::getSignedMaxValue(width), 10, true);
}

/// The first character at or after `p` that is not a space (the text ends
/// with a NUL, as MLIR's lexer reads it).
static const char *skipSpaces(const char *p) {
  while (llvm::isSpace(*p))
    ++p;
  return p;
}

/// The closing bracket of the one at `open` (`{`, `<`, `[` or `(`), past
/// nested ones and string literals; null when the text ends first.
static const char *closingBracket(const char *open) {
  int depth = 0;
  for (const char *p = open; *p; ++p) {
    if (*p == '"') {
      for (++p; *p && *p != '"'; ++p)
        if (*p == '\\' && p[1])
          ++p;
      if (!*p)
        return nullptr;
      continue;
    }
    if (StringRef("{<[(").contains(*p))
      ++depth;
    // `->` is an arrow, not a bracket.
    else if (StringRef("}])").contains(*p) || (*p == '>' && p[-1] != '-'))
      if (--depth == 0)
        return p;
  }
  return nullptr;
}

/// Checks the decimal integer literals of the source text from `begin` to
/// `end` against fuse's signed integers: MLIR reads a literal of a signless
/// integer type in either sign's range (`4294967295 : i32` is the bits of
/// -1, and so is 4294967295 in `dense<...> : tensor<2xi32>`), which would
/// be a silent wrong value. With `width`, every literal is of that many
/// bits (a dense body); without, those followed by `: iN` are (an attribute
/// dictionary). A literal is a run of digits, after a `-` or not, that no
/// name, hexadecimal (`0x`), float or shape (`2x3`) holds.
static ParseResult checkSignedLiterals(OpAsmParser &parser, const char *begin,
                                       const char *end,
                                       std::optional<unsigned> width) {
  auto isWordChar = [](char c) {
    return llvm::isAlnum(c) || StringRef("_.$#%@").contains(c);
  };
  for (const char *p = begin; p < end; ++p) {
    if (!llvm::isDigit(*p) || (p > begin && isWordChar(p[-1])))
      continue;
    const char *start = p;
    while (p < end && llvm::isDigit(*p))
      ++p;
    StringRef digits(start, p - start);
    if (p < end && (isWordChar(*p) || *p == 'x'))
      continue;
    std::optional<unsigned> bits = width;
    if (!bits) {
      StringRef rest = StringRef(p, end - p).ltrim();
      if (!rest.consume_front(":"))
        continue;
      rest = rest.ltrim();
      unsigned n;
      if (!rest.consume_front("i") || rest.consumeInteger(10, n) ||
          (!rest.empty() && isWordChar(rest.front())))
        continue;
      bits = n;
    }
    // fuse's integer types are i1, i32 and i64; the verifier refuses others.
    if (*bits == 0 || *bits > 64)
      continue;
    bool negative = start > begin && start[-1] == '-';
    // An i1 is 0 or 1 (MLIR read dense<-1> : tensor<2xi1> as true).
    if (*bits == 1) {
      if (negative || digits.ltrim('0').size() > 1 ||
          (digits.ltrim('0').size() == 1 && digits.ltrim('0') != "1"))
        return parser.emitError(
                   SMLoc::getFromPointer(negative ? start - 1 : start))
               << (negative ? "-" : "") << digits
               << " is not a value of i1: it takes true, false, 1 and 0";
      continue;
    }
    APInt value(std::max<unsigned>(digits.size() * 4, 8) + 1, digits, 10);
    if (negative)
      value.negate();
    if (!value.isSignedIntN(*bits))
      return parser.emitError(
                 SMLoc::getFromPointer(negative ? start - 1 : start))
             << (negative ? "-" : "") << digits << doesNotFit(*bits);
  }
  return success();
}

/// A unary op's one type, its operand's and its result's. The binary ops'
/// `-> result-type` after it is refused with what to write, where the
/// generic parser's error was "expected operation name in quotes".
static ParseResult parseUnaryType(OpAsmParser &parser,
                                  const OpAsmParser::UnresolvedOperand &operand,
                                  Type &type) {
  llvm::SMLoc at = parser.getCurrentLocation();
  if (parser.parseType(type) ||
      refuseFunctionType(parser, at, type,
                         "one type, the operand's, which is the result's"))
    return failure();
  llvm::SMLoc arrow = parser.getCurrentLocation();
  if (succeeded(parser.parseOptionalArrow()))
    return parser.emitError(arrow)
           << "a unary op has one type, its operand's, which is its result's "
              "(`: "
           << str(type)
           << "`); to change the element type, use fuse.cast "
              "(`fuse.cast %x : A to B`)";
  return resolveWithNote(
      parser, operand, type, at,
      "a unary op's one type is its operand's, which is its result's; "
      "fuse.cast changes an element type (`fuse.cast %x : A to B`)");
}

static void printUnaryType(OpAsmPrinter &printer, Operation *, Value,
                           Type type) {
  printer << type;
}

//===----------------------------------------------------------------------===//
// Unary ops with attributes
//===----------------------------------------------------------------------===//

LogicalResult GeluOp::verify() {
  if (getApproximate() != "none" && getApproximate() != "tanh")
    return emitOpError("approximate must be \"none\" or \"tanh\", got \"")
           << getApproximate() << "\"";
  return success();
}

/// Checks that a scalar attribute of an op on `tensorType` has the right kind:
/// a float for float tensors; for integer tensors an integer that fits the
/// element type.
static LogicalResult verifyScalarAttr(Operation *op, StringRef name,
                                      Attribute attr, Type tensorType) {
  if (!attr)
    return success();
  Type element = cast<RankedTensorType>(tensorType).getElementType();
  if (isa<FloatType>(element)) {
    if (isa<FloatAttr>(attr))
      return success();
    return op->emitOpError("'") << name << "' must be a float attribute for "
                                << str(tensorType) << ", got " << attr;
  }
  auto integer = dyn_cast<IntegerAttr>(attr);
  auto integerType =
      integer ? dyn_cast<IntegerType>(integer.getType()) : IntegerType();
  if (!integerType || integerType.getWidth() == 1)
    return op->emitOpError("'") << name << "' must be an integer attribute for "
                                << str(tensorType) << ", got " << attr;
  // Read as its type reads it, whatever its width: `200 : ui8` was -56, and
  // an i128 bound was cut to its low 64 bits, silently.
  std::optional<int64_t> value = integerAttrValue(integer);
  unsigned width = element.getIntOrFloatBitWidth();
  if (!value || !llvm::isIntN(width, *value))
    return op->emitOpError("'")
           << name << "' value "
           << llvm::toString(integer.getValue(), 10,
                             !integerType.isUnsignedInteger())
           << doesNotFit(width);
  return success();
}

std::optional<int64_t> fuse::integerAttrValue(IntegerAttr attr) {
  const APInt &value = attr.getValue();
  if (attr.getType().isUnsignedInteger())
    return value.isIntN(63) ? std::optional<int64_t>(value.getZExtValue())
                            : std::nullopt;
  return value.isSignedIntN(64) ? std::optional<int64_t>(value.getSExtValue())
                                : std::nullopt;
}

/// `fuse.clamp %x {min = ..., max = ...} : type`, with the bounds' integer
/// literals checked against their signed types (checkSignedLiterals).
ParseResult ClampOp::parse(OpAsmParser &parser, OperationState &result) {
  OpAsmParser::UnresolvedOperand input;
  Type type;
  if (parser.parseOperand(input))
    return failure();
  SMLoc begin = parser.getCurrentLocation();
  // The generated parsers check the inherent attributes' constraints here;
  // a bound that failed them was dropped silently.
  auto emitError = [&]() {
    return parser.emitError(begin)
           << "'" << result.name.getStringRef() << "' op ";
  };
  // The literals before MLIR reads them: it refuses a negative one past its
  // type in its own words (`-129 : i8`: "integer constant out of range for
  // attribute").
  const char *open = skipSpaces(begin.getPointer());
  if (*open == '{')
    if (const char *end = closingBracket(open);
        end && failed(checkSignedLiterals(parser, open, end, std::nullopt)))
      return failure();
  if (parser.parseOptionalAttrDict(result.attributes) ||
      failed(verifyInherentAttrs(result.name, result.attributes, emitError)) ||
      checkSignedLiterals(parser, begin.getPointer(),
                          parser.getCurrentLocation().getPointer(),
                          std::nullopt) ||
      parser.parseColon() || parseUnaryType(parser, input, type) ||
      parser.resolveOperand(input, type, result.operands))
    return failure();
  result.addTypes(type);
  return success();
}

void ClampOp::print(OpAsmPrinter &printer) {
  printer << ' ' << getInput();
  printer.printOptionalAttrDict((*this)->getAttrs());
  printer << " : ";
  printUnaryType(printer, *this, getInput(), getType());
}

LogicalResult ClampOp::verify() {
  if (failed(verifyScalarAttr(*this, "min", getMinAttr(), getType())) ||
      failed(verifyScalarAttr(*this, "max", getMaxAttr(), getType())))
    return failure();
  return success();
}

LogicalResult LeakyReluOp::verify() {
  return verifyScalarAttr(*this, "alpha", getAlphaAttr(), getType());
}

double LeakyReluOp::getAlphaValue() {
  if (auto alpha = dyn_cast_or_null<FloatAttr>(getAlphaAttr()))
    return alpha.getValueAsDouble();
  return 0.01;
}

//===----------------------------------------------------------------------===//
// CastOp
//===----------------------------------------------------------------------===//

LogicalResult CastOp::verify() {
  auto in = cast<RankedTensorType>(getInput().getType());
  auto out = cast<RankedTensorType>(getType());
  if (in.getShape() != out.getShape())
    return emitOpError("cannot change the shape: ")
           << str(in) << " to " << str(out)
           << "; fuse.cast converts the element type only";
  return success();
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

/// Checks `dims` against the operand and the declared result type, which
/// keeps the reduced dimensions with size 1 or drops them. `emptyIsError`:
/// a reduction with no identity (max, min) of a dimension of static size 0.
/// `input` and `result` are ranked (the operand and result constraints,
/// verified first).
static LogicalResult verifyReduction(Operation *op, ShapedType inputType,
                                     ArrayRef<int64_t> dims,
                                     ShapedType resultType, bool emptyIsError) {
  auto input = cast<RankedTensorType>(inputType);
  auto result = cast<RankedTensorType>(resultType);
  int64_t rank = input.getRank();
  if (rank == 0)
    return op->emitOpError("cannot reduce ")
           << str(input) << ": a 0-d tensor has no dimension";
  if (dims.empty())
    return op->emitOpError("needs at least one dimension in 'dims'");
  llvm::SmallBitVector reduced(rank);
  for (int64_t dim : dims) {
    if (dim < 0 && dim >= -rank)
      return op->emitOpError("dimension ")
             << dim << " in 'dims' is negative: fuse counts dimensions from "
             << "0, so numpy's " << dim << " is " << dim + rank << " for "
             << str(input);
    if (dim < 0 || dim >= rank)
      return op->emitOpError("dimension ")
             << dim << " in 'dims' is out of range for " << str(input)
             << " (rank " << rank << ": 0 to " << rank - 1 << ")";
    if (reduced.test(dim))
      return op->emitOpError("dimension ") << dim << " is twice in 'dims'";
    reduced.set(dim);
  }
  if (result.getElementType() != input.getElementType())
    return op->emitOpError("result element type ")
           << str(result.getElementType()) << " differs from the operand's, "
           << str(input.getElementType());
  SmallVector<int64_t> kept, dropped;
  for (int64_t d = 0; d < rank; ++d) {
    kept.push_back(reduced.test(d) ? 1 : input.getDimSize(d));
    if (!reduced.test(d))
      dropped.push_back(input.getDimSize(d));
  }
  if (result.getShape() != ArrayRef<int64_t>(kept) &&
      result.getShape() != ArrayRef<int64_t>(dropped))
    return op->emitOpError("declared result type ")
           << str(result) << " does not match the reduction of " << str(input)
           << " over the dims: expected "
           << str(RankedTensorType::get(kept, input.getElementType()))
           << " (dims kept) or "
           << str(RankedTensorType::get(dropped, input.getElementType()))
           << " (dims dropped)";
  if (emptyIsError)
    for (int64_t dim : dims)
      if (input.getDimSize(dim) == 0)
        return op->emitOpError("reduces dimension ")
               << dim << " of size 0, which has no "
               << op->getName().stripDialect().drop_front(strlen("reduce_"))
               << "imum";
  return success();
}

std::optional<ArrayRef<int64_t>> fuse::reducedDims(Operation *op) {
  if (!op->hasTrait<OpTrait::Reduction>())
    return std::nullopt;
  return cast<DenseI64ArrayAttr>(op->getAttr("dims")).asArrayRef();
}

bool fuse::emptyReductionIsError(Operation *op) {
  if (auto max = dyn_cast<ReduceMaxOp>(op))
    return !max.getIdentityIfEmpty();
  if (auto min = dyn_cast<ReduceMinOp>(op))
    return !min.getIdentityIfEmpty();
  return false;
}

LogicalResult ReduceSumOp::verify() {
  return verifyReduction(*this, getInput().getType(), getDims(), getType(),
                         /*emptyIsError=*/false);
}
LogicalResult ReduceMaxOp::verify() {
  return verifyReduction(*this, getInput().getType(), getDims(), getType(),
                         emptyReductionIsError(*this));
}
LogicalResult ReduceMinOp::verify() {
  return verifyReduction(*this, getInput().getType(), getDims(), getType(),
                         emptyReductionIsError(*this));
}
LogicalResult ReduceMeanOp::verify() {
  return verifyReduction(*this, getInput().getType(), getDims(), getType(),
                         /*emptyIsError=*/false);
}

//===----------------------------------------------------------------------===//
// ConstantOp
//===----------------------------------------------------------------------===//

/// Shortest decimal form of `value` that reads back to the same bits, always
/// with a `.` so that MLIR's lexer sees a float literal. A NaN is `nan` or
/// `-nan` when it is the one they read as, else its bits in hexadecimal
/// (`0x7FC00001`: a payload).
static std::string formatFloat(const APFloat &value) {
  if (value.isNaN()) {
    if (value.bitwiseIsEqual(
            APFloat::getNaN(value.getSemantics(), value.isNegative())))
      return value.isNegative() ? "-nan" : "nan";
    APInt bits = value.bitcastToAPInt();
    std::string hex = llvm::toString(bits, 16, /*Signed=*/false, false, true);
    return "0x" + std::string((bits.getBitWidth() + 3) / 4 - hex.size(), '0') +
           hex;
  }
  if (value.isInfinity())
    return value.isNegative() ? "-inf" : "inf";
  APFloat wide = value;
  bool lost = false;
  wide.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &lost);
  double d = wide.convertToDouble();
  char buffer[40];
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(buffer, sizeof(buffer), "%.*g", precision, d);
    APFloat back(std::strtod(buffer, nullptr));
    back.convert(value.getSemantics(), APFloat::rmNearestTiesToEven, &lost);
    if (back.bitwiseIsEqual(value))
      break;
  }
  std::string text = buffer;
  if (text.find('.') == std::string::npos) {
    size_t e = text.find('e');
    text.insert(e == std::string::npos ? text.size() : e, ".0");
  }
  return text;
}

/// The end of the exponent (`e-5`) that starts at `end`, just after a
/// decimal integer's digits, or null when none does. The text ends with a
/// NUL, so that nothing past it is read.
static const char *exponentEnd(const char *end) {
  if (*end != 'e' && *end != 'E')
    return nullptr;
  const char *exponent = end + 1;
  if (*exponent == '-' || *exponent == '+')
    ++exponent;
  if (!llvm::isDigit(*exponent))
    return nullptr;
  while (llvm::isDigit(*exponent))
    ++exponent;
  return exponent;
}

/// The error for `1e-5` (digits from `begin` to `end`, then an exponent up
/// to `exponentEnd`): MLIR's lexer reads the integer 1 and the word `e`.
static ParseResult exponentWithoutPoint(OpAsmParser &parser, const char *begin,
                                        const char *end,
                                        const char *exponentEnd,
                                        bool negative = false) {
  return parser.emitError(SMLoc::getFromPointer(begin),
                          "a float literal needs a '.' before its exponent: "
                          "write ")
         << (negative ? "-" : "") << StringRef(begin, end - begin) << ".0"
         << StringRef(end, exponentEnd - end);
}

ParseResult ConstantOp::parse(OpAsmParser &parser, OperationState &result) {
  if (parser.parseOptionalAttrDict(result.attributes))
    return failure();
  SMLoc loc = parser.getCurrentLocation();

  // `dense<...> : type` is a builtin attribute that carries its own type.
  if (std::strncmp(loc.getPointer(), "dense", 5) == 0) {
    // `1e-5` without a '.' (it said "expected ']'").
    for (const char *c = loc.getPointer() + 5; *c && *c != '>'; ++c) {
      if (!llvm::isDigit(*c) || llvm::isAlnum(c[-1]) || c[-1] == '.')
        continue;
      const char *end = c;
      while (llvm::isDigit(*end))
        ++end;
      if (const char *exponent = exponentEnd(end))
        return exponentWithoutPoint(parser, c, end, exponent);
    }
    // The literals before MLIR reads them, when the type after them is a
    // tensor of integers: it refuses one past the type's range in its own
    // words ("integer constant out of range for type").
    if (const char *end = closingBracket(loc.getPointer() + 5)) {
      const char *colon = skipSpaces(end + 1);
      const char *tensor = *colon == ':' ? skipSpaces(colon + 1) : colon;
      const char *typeEnd = std::strncmp(tensor, "tensor<", 7) == 0
                                ? closingBracket(tensor + 6)
                                : nullptr;
      unsigned width;
      if (*colon == ':' && typeEnd) {
        StringRef type(tensor + 7, typeEnd - tensor - 7);
        type = type.rsplit('x').second.empty() ? type : type.rsplit('x').second;
        if (type.consume_front("i") && !type.getAsInteger(10, width) &&
            failed(checkSignedLiterals(parser, loc.getPointer(), end, width)))
          return failure();
      }
    }
    ElementsAttr elements;
    if (parser.parseAttribute(elements))
      return failure();
    Type element = elements.getElementType();
    if (element.isInteger() &&
        checkSignedLiterals(parser, loc.getPointer(),
                            parser.getCurrentLocation().getPointer(),
                            element.getIntOrFloatBitWidth()))
      return failure();
    result.addAttribute("value", elements);
    result.addTypes(elements.getType());
    return success();
  }

  // A scalar: true, false, [-]nan, [-]inf, an integer (a hexadecimal one is
  // the bit pattern of a float type, as in MLIR) or a float literal.
  bool negative = succeeded(parser.parseOptionalMinus());
  SMLoc numberLoc = parser.getCurrentLocation();
  if (negative && *numberLoc.getPointer() == '-')
    return parser.emitError(numberLoc, "expected a number after '-'");
  bool hex = std::strncmp(numberLoc.getPointer(), "0x", 2) == 0;
  StringRef keyword;
  std::optional<APInt> integer;
  double real = 0;
  if (failed(parser.parseOptionalKeyword(&keyword,
                                         {"true", "false", "nan", "inf"}))) {
    APInt parsed;
    OptionalParseResult isInteger = parser.parseOptionalInteger(parsed);
    if (isInteger.has_value()) {
      if (failed(*isInteger))
        return failure();
      const char *end = parser.getCurrentLocation().getPointer();
      if (!hex && llvm::isDigit(end[-1]))
        if (const char *exponent = exponentEnd(end))
          return exponentWithoutPoint(parser, numberLoc.getPointer(), end,
                                      exponent, negative);
      // One more bit keeps the magnitude non-negative as a signed value.
      integer = parsed.zext(parsed.getBitWidth() + 1);
    } else if (parser.parseFloat(real)) {
      return failure();
    }
  }

  Type type;
  if (parser.parseColonType(type))
    return failure();
  auto tensorType = dyn_cast<RankedTensorType>(type);
  // A bare element type (`: f32`) is the 0-d tensor of it (`tensor<f32>`).
  if (type.isIntOrFloat())
    return parser.emitError(loc, "a scalar constant needs a 0-d tensor type, "
                                 "got ")
           << str(type) << "; write tensor<" << str(type) << ">";
  if (!tensorType || tensorType.getRank() != 0)
    return parser.emitError(loc, "a scalar constant needs a 0-d tensor type, "
                                 "got ")
           << str(type) << "; write dense<...> for other shapes";
  Type element = tensorType.getElementType();
  if (!element.isIntOrFloat() || element.isIndex())
    return parser.emitError(loc, "unsupported element type ")
           << str(element) << " for a constant";

  Attribute scalar;
  if (auto floatType = dyn_cast<FloatType>(element)) {
    const llvm::fltSemantics &semantics = floatType.getFloatSemantics();
    APFloat value(semantics);
    bool lost = false;
    if (keyword == "nan") {
      value = APFloat::getNaN(semantics);
    } else if (keyword == "inf") {
      value = APFloat::getInf(semantics);
    } else if (!keyword.empty()) {
      return parser.emitError(loc, "'")
             << keyword << "' is not a value of " << str(element);
    } else if (integer && hex) {
      unsigned width = floatType.getWidth();
      if (negative || integer->getActiveBits() > width)
        return parser.emitError(numberLoc, "hexadecimal bit pattern does not "
                                           "fit in ")
               << str(element);
      value = APFloat(semantics, integer->zextOrTrunc(width));
    } else if (integer) {
      value.convertFromAPInt(*integer, /*IsSigned=*/true,
                             APFloat::rmNearestTiesToEven);
    } else {
      // The literal's text, rounded once to the element type (through the
      // double that parseFloat gave, 1.000488281250000000001 rounded to
      // 1.00048828125, a tie, and then to 1.0 in f16, not 1.0009765625).
      StringRef text(numberLoc.getPointer());
      text = text.take_while([](char c) {
        return llvm::isDigit(c) || StringRef(".eE+-").contains(c);
      });
      llvm::Expected<APFloat::opStatus> status =
          value.convertFromString(text, APFloat::rmNearestTiesToEven);
      if (!status) {
        llvm::consumeError(status.takeError());
        value = APFloat(real);
        value.convert(semantics, APFloat::rmNearestTiesToEven, &lost);
      }
    }
    if (negative)
      value.changeSign();
    scalar = FloatAttr::get(floatType, value);
  } else {
    unsigned width = element.getIntOrFloatBitWidth();
    APInt value(width, 0);
    if (keyword == "true" || keyword == "false") {
      if (width != 1 || negative)
        return parser.emitError(loc, "'")
               << keyword << "' is not a value of " << str(element);
      value = APInt(1, keyword == "true");
    } else if (!integer) {
      return parser.emitError(loc, "expected an integer value for ")
             << str(element);
    } else {
      APInt signedValue = *integer;
      if (negative)
        signedValue.negate();
      bool fits = width == 1 ? (signedValue == 0 || signedValue == 1)
                             : signedValue.isSignedIntN(width);
      if (!fits && width == 1)
        return parser.emitError(loc, "value does not fit in i1: it takes "
                                     "true, false, 1 and 0");
      if (!fits)
        return parser.emitError(loc)
               << llvm::toString(signedValue, 10, /*Signed=*/true)
               << doesNotFit(width);
      value = signedValue.sextOrTrunc(width);
    }
    scalar = IntegerAttr::get(element, value);
  }
  result.addAttribute("value", DenseElementsAttr::get(tensorType, scalar));
  result.addTypes(tensorType);
  return success();
}

void ConstantOp::print(OpAsmPrinter &printer) {
  printer.printOptionalAttrDict((*this)->getAttrs(), {"value"});
  printer << ' ';
  auto dense = dyn_cast<DenseElementsAttr>(getValue());
  if (!dense || getType().getRank() != 0) {
    printer.printAttribute(getValue());
    return;
  }
  if (dense.getElementType().isInteger(1))
    printer << (dense.getSplatValue<bool>() ? "true" : "false");
  else if (isa<FloatType>(dense.getElementType()))
    printer << formatFloat(dense.getSplatValue<APFloat>());
  else
    printer << dense.getSplatValue<APInt>().getSExtValue();
  printer << " : " << getType();
}

LogicalResult ConstantOp::verify() {
  if (getValue().getType() != getType())
    return emitOpError("value type ")
           << str(getValue().getType()) << " does not match the result type "
           << str(getType());
  if (!isa<DenseElementsAttr>(getValue()))
    return emitOpError("value must be a dense<...> attribute, got ")
           << getValue();
  return success();
}

OpFoldResult ConstantOp::fold(FoldAdaptor) { return getValue(); }

#define GET_OP_CLASSES
#include "fuse/Dialect/Fuse/IR/FuseOps.cpp.inc"

#include "fuse/Dialect/Fuse/IR/FuseEnums.cpp.inc"
