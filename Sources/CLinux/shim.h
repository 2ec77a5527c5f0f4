#pragma once
// Linux calls the Glibc module does not import (they need _GNU_SOURCE).
#ifdef __linux__
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <fcntl.h>

/// Asks the kernel to start writing `count` bytes of `fd` from `offset` to disk, without waiting.
static inline int fencesim_start_writeback(int fd, long long offset, long long count) {
    return sync_file_range(fd, offset, count, SYNC_FILE_RANGE_WRITE);
}
#endif
