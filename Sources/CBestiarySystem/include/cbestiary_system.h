#ifndef CBESTIARY_SYSTEM_H
#define CBESTIARY_SYSTEM_H

/// Atomically exchanges two paths on the same file system (Linux renameat2 RENAME_EXCHANGE).
/// Returns 0 on success, -1 with errno set otherwise (ENOSYS/EINVAL where unsupported).
int cbestiary_exchange_paths(const char *a, const char *b);

/// Returns memory the allocator holds freed to the system (glibc malloc_trim); no-op elsewhere.
void cbestiary_release_free_memory(void);

/// Serves allocations of at least `threshold` bytes from their own mappings, returned to the
/// system when freed (glibc mallopt M_MMAP_THRESHOLD, which also stops glibc raising the
/// threshold by itself), and trims the heap's top once 128 KiB of it is free, growing it by as
/// much beyond each need (M_TRIM_THRESHOLD and M_TOP_PAD, glibc's defaults: undoes
/// cbestiary_keep_freed_memory); no-op elsewhere.
void cbestiary_map_large_blocks(long threshold);

/// Serves allocations below `threshold` bytes from the heap and keeps up to that much freed at
/// its top (glibc M_MMAP_THRESHOLD and M_TRIM_THRESHOLD): freed blocks are reused, not mapped and
/// unmapped again; and grows the heap by `pad` bytes beyond each need (M_TOP_PAD), in fewer
/// system calls; no-op elsewhere.
void cbestiary_keep_freed_memory(long threshold, long pad);

/// 1 when the functions above do something (built against glibc), else 0.
int cbestiary_memory_control_available(void);

/// Accepts a connection whose descriptor is closed on exec (accept4 with SOCK_CLOEXEC on Linux,
/// so a program started meanwhile by another thread cannot inherit it), and that blocks even
/// when the listener does not. As accept(2) otherwise.
int cbestiary_accept_cloexec(int listener);

/// 1 when `signal` is ignored (SIG_IGN), as `nohup` leaves SIGHUP for the program it starts;
/// 0 otherwise.
int cbestiary_signal_ignored(int signal);

/// Starts `path` with `argv` and `envp` (each NULL-terminated) in a session of its own, its
/// standard input and outputs /dev/null, no other descriptor of the caller's open in it, the
/// default dispositions of SIGPIPE, SIGHUP, SIGINT and SIGTERM, and the root folder as its working
/// folder: a process that outlives the caller without holding anything of it. Not waited for.
/// Returns its process id, or -1 with errno set (ENOSYS where the C library cannot close the
/// caller's descriptors in it: glibc before 2.34, others but Darwin's).
int cbestiary_spawn_detached(const char *path, char *const argv[], char *const envp[]);

#endif
