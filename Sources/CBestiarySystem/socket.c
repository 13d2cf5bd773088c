#define _GNU_SOURCE
#include "cbestiary_system.h"
#include <fcntl.h>
#include <sys/socket.h>

int cbestiary_accept_cloexec(int listener) {
#if defined(__linux__)
    return accept4(listener, 0, 0, SOCK_CLOEXEC);
#else
    int fd = accept(listener, 0, 0);
    if (fd >= 0) fcntl(fd, F_SETFD, FD_CLOEXEC);
    return fd;
#endif
}
