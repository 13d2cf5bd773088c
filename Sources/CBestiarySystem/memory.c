#include "cbestiary_system.h"
// Any libc header defines __GLIBC__ (features.h); without one the checks below are always false.
#include <stdlib.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

void cbestiary_release_free_memory(void) {
#if defined(__GLIBC__)
    malloc_trim(0);
#endif
}

void cbestiary_map_large_blocks(long threshold) {
#if defined(__GLIBC__)
    mallopt(M_MMAP_THRESHOLD, (int)threshold);
    mallopt(M_TRIM_THRESHOLD, 128 * 1024);
    mallopt(M_TOP_PAD, 128 * 1024);
#endif
}

void cbestiary_keep_freed_memory(long threshold, long pad) {
#if defined(__GLIBC__)
    mallopt(M_MMAP_THRESHOLD, (int)threshold);
    mallopt(M_TRIM_THRESHOLD, (int)threshold);
    mallopt(M_TOP_PAD, (int)pad);
#endif
}

int cbestiary_memory_control_available(void) {
#if defined(__GLIBC__)
    return 1;
#else
    return 0;
#endif
}
