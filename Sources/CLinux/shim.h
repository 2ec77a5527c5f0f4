#pragma once
// Linux calls the Glibc module does not import (they need _GNU_SOURCE).
#ifdef __linux__
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <fcntl.h>
#include <math.h>
#include <stddef.h>
#include <sys/vfs.h>

#ifdef __GLIBC__
/// glibc's allocator calls (malloc.h), declared here rather than included: malloc.h, like
/// stdlib.h, would bring sys/select.h into this module, whose `fd_set` (under _GNU_SOURCE) then
/// clashes with the one Dispatch's module sees. The two parameters are glibc's values.
extern int mallopt(int param, int value);
struct mallinfo2 {
    size_t arena, ordblks, smblks, hblks, hblkhd, usmblks, fsmblks, uordblks, fordblks, keepcost;
};
extern struct mallinfo2 mallinfo2(void);
#endif

/// Sets glibc's allocator to keep the memory a run frees for the run's later allocations:
/// blocks of up to 32 MB are carved from the heap instead of mapped and unmapped one by one
/// (the default above 128 KB), and free memory at the heap's top is returned to the system only
/// past 1 GB. Every block mapped alone is zeroed page by page by the kernel when first touched;
/// reused heap memory is not. Nothing elsewhere; the caller leaves settings the user gave the
/// allocator alone.
static inline void fencesim_keep_freed_memory(void) {
#ifdef __GLIBC__
    mallopt(-3 /* M_MMAP_THRESHOLD */, 32 << 20);
    mallopt(-1 /* M_TRIM_THRESHOLD */, 1 << 30);
#endif
}

/// Blocks the allocator has mapped alone and not yet unmapped (-1 where unknown).
static inline long fencesim_mapped_blocks(void) {
#ifdef __GLIBC__
    return (long)mallinfo2().hblks;
#else
    return -1;
#endif
}

/// Asks the kernel to start writing `count` bytes of `fd` from `offset` to disk, without waiting.
static inline int fencesim_start_writeback(int fd, long long offset, long long count) {
    return sync_file_range(fd, offset, count, SYNC_FILE_RANGE_WRITE);
}

/// Turns direct I/O on or off for `fd` (`O_DIRECT`); 0, or -1 with errno set.
static inline int fencesim_set_direct(int fd, int on) {
    int flags = fcntl(fd, F_GETFL);
    if (flags < 0) return -1;
    return fcntl(fd, F_SETFL, on ? (flags | O_DIRECT) : (flags & ~O_DIRECT));
}

/// Whether `fd` is a file of a local disk file system where direct I/O pays: ext4, XFS or
/// Btrfs (`statfs` magic numbers from linux/magic.h). Network file systems (direct writes go to
/// the server one at a time), tmpfs (pages in memory either way), overlays and FUSE are not.
static inline int fencesim_on_local_disk(int fd) {
    struct statfs s;
    if (fstatfs(fd, &s) != 0) return 0;
    switch ((unsigned long)s.f_type) {
    case 0xEF53UL:      /* EXT2/3/4_SUPER_MAGIC */
    case 0x58465342UL:  /* XFS_SUPER_MAGIC */
    case 0x9123683EUL:  /* BTRFS_SUPER_MAGIC */
        return 1;
    default:
        return 0;
    }
}

/// The sine and cosine of `x` in one call, the same values as `sin` and `cos` (glibc computes
/// them with one argument reduction; the transverse Mercator takes three pairs a point).
static inline void fencesim_sincos(double x, double *s, double *c) {
    sincos(x, s, c);
}

/// Asks the processor to bring the cache line at `p` closer, for a read soon (no fault if `p`
/// is not mapped; no effect on what the program computes).
static inline void fencesim_prefetch(const void *p) {
    __builtin_prefetch(p, 0, 3);
}

/// Asks for the cache line at `p` to be brought closer for a write soon (the same guarantees).
static inline void fencesim_prefetch_write(const void *p) {
    __builtin_prefetch(p, 1, 3);
}

/// The bytes of a JSON text a structural scan looks for, among the 64 at `p`: bit k of each
/// mask is set when byte k is a double quote, a backslash, an opening bracket (`{` or `[`, one
/// bit apart: 0x7B and 0x5B), a closing bracket (`}` or `]`), or a comma. SSE2 compares 16
/// bytes at once where the compiler targets it (every x86-64), a byte loop elsewhere; the
/// masks are the same.
typedef struct {
    unsigned long long quotes, backslashes, opens, closes, commas;
} fencesim_json_classes;

static inline fencesim_json_classes fencesim_classify_json64(const unsigned char *p) {
    fencesim_json_classes r = {0, 0, 0, 0, 0};
#if defined(__SSE2__)
    typedef char fencesim_v16 __attribute__((vector_size(16)));
    for (int k = 0; k < 4; k++) {
        fencesim_v16 v;
        __builtin_memcpy(&v, p + 16 * k, 16);
        fencesim_v16 folded = v | (char)0x20;
        int shift = 16 * k;
        r.quotes |= (unsigned long long)(unsigned int)__builtin_ia32_pmovmskb128((fencesim_v16)(v == (char)'"')) << shift;
        r.backslashes |= (unsigned long long)(unsigned int)__builtin_ia32_pmovmskb128((fencesim_v16)(v == (char)'\\')) << shift;
        r.opens |= (unsigned long long)(unsigned int)__builtin_ia32_pmovmskb128((fencesim_v16)(folded == (char)'{')) << shift;
        r.closes |= (unsigned long long)(unsigned int)__builtin_ia32_pmovmskb128((fencesim_v16)(folded == (char)'}')) << shift;
        r.commas |= (unsigned long long)(unsigned int)__builtin_ia32_pmovmskb128((fencesim_v16)(v == (char)',')) << shift;
    }
#else
    for (int k = 0; k < 64; k++) {
        unsigned char b = p[k];
        unsigned char f = b | 0x20;
        r.quotes |= (unsigned long long)(b == '"') << k;
        r.backslashes |= (unsigned long long)(b == '\\') << k;
        r.opens |= (unsigned long long)(f == '{') << k;
        r.closes |= (unsigned long long)(f == '}') << k;
        r.commas |= (unsigned long long)(b == ',') << k;
    }
#endif
    return r;
}
#endif
