#define _GNU_SOURCE
#include "cbestiary_system.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <unistd.h>

int cbestiary_spawn_detached(const char *path, char *const argv[], char *const envp[]) {
#if !(defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 34))) && !defined(__APPLE__)
    // No way here to start it without the caller's other descriptors (glibc before 2.34, musl):
    // the caller does the work itself.
    (void)path;
    (void)argv;
    (void)envp;
    errno = ENOSYS;
    return -1;
#else
    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attributes;
    if (posix_spawn_file_actions_init(&actions) != 0) return -1;
    if (posix_spawnattr_init(&attributes) != 0) {
        posix_spawn_file_actions_destroy(&actions);
        return -1;
    }
    int failed = 0;
    short flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF;
#ifdef POSIX_SPAWN_SETSID
    // Its own session: no terminal's Ctrl-C or hang-up reaches it.
    flags |= POSIX_SPAWN_SETSID;
#endif
#ifdef POSIX_SPAWN_CLOEXEC_DEFAULT
    // (Darwin) Only the descriptors opened below are inherited.
    flags |= POSIX_SPAWN_CLOEXEC_DEFAULT;
#endif
    sigset_t none, defaults;
    sigemptyset(&none);
    sigemptyset(&defaults);
    sigaddset(&defaults, SIGPIPE);
    sigaddset(&defaults, SIGHUP);
    sigaddset(&defaults, SIGINT);
    sigaddset(&defaults, SIGTERM);
    failed |= posix_spawnattr_setflags(&attributes, flags);
    failed |= posix_spawnattr_setsigmask(&attributes, &none);
    failed |= posix_spawnattr_setsigdefault(&attributes, &defaults);
    // Nothing of the caller's: not its terminal, not the pipes a script reads its output from
    // (which would stay open until the child ends), not its locks.
    failed |= posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    failed |= posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    failed |= posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
#if defined(__GLIBC__)
    failed |= posix_spawn_file_actions_addclosefrom_np(&actions, 3);
#endif
    // Not holding the caller's working folder (a file system it would keep from being unmounted).
    failed |= posix_spawn_file_actions_addchdir_np(&actions, "/");
    pid_t pid = -1;
    int code = failed ? EINVAL : posix_spawn(&pid, path, &actions, &attributes, argv, envp);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
    if (code != 0) {
        errno = code;
        return -1;
    }
    return (int)pid;
#endif
}
