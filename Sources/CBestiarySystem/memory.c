#include "cbestiary_system.h"
#if defined(__GLIBC__)
#include <malloc.h>
#endif

void cbestiary_release_free_memory(void) {
#if defined(__GLIBC__)
    malloc_trim(0);
#endif
}
