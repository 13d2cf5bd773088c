import BestiaryStorage
import Testing

@Suite struct ProcessMemoryTests {
    /// The C shim once tested `__GLIBC__` before including any libc header, so both calls
    /// compiled to nothing and the build's peak memory kept every stage's freed memory.
    @Test func onGlibcTheAllocatorCallsAreCompiledIn() {
        #if os(Linux)
        #expect(ProcessMemory.isControllable)
        #endif
        ProcessMemory.releaseFreed()
    }
}
