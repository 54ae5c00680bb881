//===- InitAllPasses.h - register every pass and pipeline ------*- C++ -*-===//

#ifndef FUSE_INITALLPASSES_H
#define FUSE_INITALLPASSES_H

namespace fuse {

/// Registers fuse's passes and named pipelines and every upstream pass.
void registerAllPasses();

} // namespace fuse

#endif // FUSE_INITALLPASSES_H
