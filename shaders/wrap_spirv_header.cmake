# Turns glslangValidator's `--vn` output (a C array of unsigned ints) into a C++ header with an
# inline constexpr array, so several translation units may include it.
file(READ ${IN} body)
string(REGEX REPLACE "const uint32_t ${NAME}_spv\\[\\]" "inline constexpr uint32_t ${NAME}_spv[]" body "${body}")
if(NOT body MATCHES "inline constexpr uint32_t ${NAME}_spv")
  message(FATAL_ERROR "unexpected glslangValidator output in ${IN}")
endif()
set(body "// Generated from shaders/${SRC} by the build; do not edit.\n#pragma once\n#include <cstdint>\n${body}")
file(WRITE ${OUT}.tmp "${body}")
file(COPY_FILE ${OUT}.tmp ${OUT} ONLY_IF_DIFFERENT)
file(REMOVE ${OUT}.tmp)
# glslangValidator's depfile names its own output (the .inc); the build's output is the header.
# Name that instead, or the build system would consider the header out of date forever.
if(DEP)
  file(READ ${DEP} deps)
  string(REPLACE "${IN}:" "${OUT}:" deps "${deps}")
  file(WRITE ${DEP} "${deps}")
endif()
