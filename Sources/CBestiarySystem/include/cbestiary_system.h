#ifndef CBESTIARY_SYSTEM_H
#define CBESTIARY_SYSTEM_H

/// Atomically exchanges two paths on the same file system (Linux renameat2 RENAME_EXCHANGE).
/// Returns 0 on success, -1 with errno set otherwise (ENOSYS/EINVAL where unsupported).
int cbestiary_exchange_paths(const char *a, const char *b);

/// Returns memory the allocator holds freed to the system (glibc malloc_trim); no-op elsewhere.
void cbestiary_release_free_memory(void);

#endif
