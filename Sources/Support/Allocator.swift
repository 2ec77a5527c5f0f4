#if canImport(CLinux)
import CLinux
#endif
#if canImport(Glibc)
import Glibc
#endif

/// The C allocator, set for a batch run.
///
/// Reading 100,000 fences allocates and frees blocks of megabytes (the file, the features
/// converted on each thread, arrays as they grow) before the index is built. By default glibc maps
/// each block of more than 128 KB alone and unmaps it when freed, so the index's allocations are
/// served with fresh pages that the kernel faults in and zeroes one at a time: a fifth of the
/// page faults of a large event-log replay (46,600 of them, 0.13 s of system time), avoided when
/// the freed memory is reused.
public enum Allocator {
    /// Keeps the memory the process frees for its own later allocations (glibc only; a user's
    /// own allocator settings win; nothing elsewhere). Peak memory is unchanged: only memory
    /// freed earlier is held, until the process reuses it or ends.
    public static func keepFreedMemory() {
        #if canImport(CLinux) && canImport(Glibc)
        guard getenv("MALLOC_MMAP_THRESHOLD_") == nil, getenv("MALLOC_TRIM_THRESHOLD_") == nil else { return }
        if let tunables = getenv("GLIBC_TUNABLES"), String(cString: tunables).contains("glibc.malloc.") { return }
        fencesim_keep_freed_memory()
        #endif
    }

    /// Blocks mapped alone and not unmapped yet; `nil` where unknown.
    public static var mappedBlocks: Int? {
        #if canImport(CLinux)
        let n = fencesim_mapped_blocks()
        return n < 0 ? nil : n
        #else
        return nil
        #endif
    }
}
