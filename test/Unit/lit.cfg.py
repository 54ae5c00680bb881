# -*- Python -*-
# GoogleTest unit tests, run by lit so that one command runs everything.
import os

import lit.formats

config.name = "fuse-unit"
config.suffixes = []
config.test_exec_root = os.path.join(config.fuse_obj_root, "unittests")
config.test_source_root = config.test_exec_root
config.test_format = lit.formats.GoogleTest(".", "Tests")
