import CBestiarySystem

/// The process's memory as the allocator holds it.
public enum ProcessMemory {
    /// Gives memory freed since to the system. glibc keeps freed memory for reuse, so a stage's
    /// temporary data (decoded cache entries, parsed YAML) would otherwise count in the process's
    /// peak memory until it ends. Takes a few milliseconds; a no-op where not glibc.
    public static func releaseFreed() {
        cbestiary_release_free_memory()
    }
}
