// The temporary files both atomic writers make beside their target (internal to app/util).
#pragma once

#include "vhist/util/unique_fd.h"

#include <sys/types.h>

#include <string>

namespace vhist::util {

// A new file next to `target`, never an existing one (O_EXCL), so two writers of one target
// never share a temporary: "TARGET.<pid>-<n>.tmp". Its name in `temp`; on failure an empty fd
// and the errno in `err`.
UniqueFd create_temp(const std::string& target, mode_t mode, std::string& temp, int& err);

}  // namespace vhist::util
