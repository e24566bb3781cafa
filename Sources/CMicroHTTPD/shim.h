// libmicrohttpd for MathAloudServer (Debian: libmicrohttpd-dev; pkg-config: libmicrohttpd).
//
// The library is not linked: MathAloudServer opens it with dlopen when a server starts
// (mathaloud_mhd_load), so the `mathaloud` command links MathAloudServer and still starts, and runs its
// other commands, where libmicrohttpd is absent. Only `mathaloud serve` needs it.
//
// MHD_start_daemon_va, MHD_get_daemon_info and MHD_get_connection_info are variadic; Swift cannot call
// a C variadic function through a pointer, so the small static functions below do it in C and take
// plain arguments.
#ifndef MATHALOUD_CMICROHTTPD_SHIM_H
#define MATHALOUD_CMICROHTTPD_SHIM_H
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <netdb.h>
#include <microhttpd.h>
#include "../CDynamicLoading/dynamic_loading.h"

#define MATHALOUD_MHD_FUNCTIONS(X) \
    X(MHD_start_daemon_va) \
    X(MHD_stop_daemon) \
    X(MHD_quiesce_daemon) \
    X(MHD_get_daemon_info) \
    X(MHD_get_connection_info) \
    X(MHD_lookup_connection_value) \
    X(MHD_get_connection_values) \
    X(MHD_create_response_from_buffer) \
    X(MHD_create_response_from_fd64) \
    X(MHD_add_response_header) \
    X(MHD_queue_response) \
    X(MHD_destroy_response)

/// The libmicrohttpd functions MathAloudServer calls, each with its declared type.
typedef struct {
    MATHALOUD_MHD_FUNCTIONS(MATHALOUD_FUNCTION_FIELD)
} mathaloud_mhd_api;

/// Opens libmicrohttpd (`path` when not NULL, else the usual names) and fills `api`. Returns NULL on
/// success, or a message saying what is missing.
static inline const char *mathaloud_mhd_load(mathaloud_mhd_api *api, const char *path) {
#if defined(__APPLE__)
    static const char *const names[] = { "libmicrohttpd.12.dylib", "libmicrohttpd.dylib",
                                         "/opt/homebrew/lib/libmicrohttpd.dylib", "/usr/local/lib/libmicrohttpd.dylib" };
#else
    static const char *const names[] = { "libmicrohttpd.so.12", "libmicrohttpd.so" };
#endif
    const char *error = NULL;
    void *handle = mathaloud_open_library(path, names, sizeof names / sizeof names[0], &error);
    if (handle == NULL) return error;
    MATHALOUD_MHD_FUNCTIONS(MATHALOUD_LOAD_FUNCTION)
    return NULL;
}

/// What `mathaloud_mhd_start` configures (every field is passed as the matching MHD_OPTION).
typedef struct {
    const char *address;                 ///< numeric IPv4 or IPv6 address to bind
    uint16_t port;                       ///< 0 picks a free port
    unsigned int threads;                ///< MHD_OPTION_THREAD_POOL_SIZE (1: no pool)
    unsigned int connection_limit;       ///< MHD_OPTION_CONNECTION_LIMIT
    unsigned int connection_timeout;     ///< MHD_OPTION_CONNECTION_TIMEOUT, seconds of inactivity
    unsigned int per_ip_limit;           ///< MHD_OPTION_PER_IP_CONNECTION_LIMIT (0: none)
    size_t connection_memory;            ///< MHD_OPTION_CONNECTION_MEMORY_LIMIT (headers + read buffer)
    unsigned int listen_backlog;         ///< MHD_OPTION_LISTEN_BACKLOG_SIZE
    size_t thread_stack;                 ///< MHD_OPTION_THREAD_STACK_SIZE (0: the system's)
} mathaloud_mhd_config;

/// Calls MHD_start_daemon_va with the options given after `handler_cls` (C builds the va_list).
static inline struct MHD_Daemon *mathaloud_mhd_start_va_(const mathaloud_mhd_api *api, unsigned int flags,
                                                        MHD_AccessHandlerCallback handler, void *handler_cls, ...) {
    va_list ap;
    va_start(ap, handler_cls);
    struct MHD_Daemon *daemon = api->MHD_start_daemon_va(flags, 0, NULL, NULL, handler, handler_cls, ap);
    va_end(ap);
    return daemon;
}

/// Starts a daemon with an option array (MHD_OPTION_ARRAY).
static inline struct MHD_Daemon *mathaloud_mhd_start_options(const mathaloud_mhd_api *api, unsigned int flags,
                                                            MHD_AccessHandlerCallback handler, void *handler_cls,
                                                            struct MHD_OptionItem *options) {
    return mathaloud_mhd_start_va_(api, flags, handler, handler_cls, MHD_OPTION_ARRAY, options, MHD_OPTION_END);
}

/// The port the daemon listens on (the one picked when 0 was asked for).
static inline uint16_t mathaloud_mhd_bound_port(const mathaloud_mhd_api *api, struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = api->MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info != NULL ? info->port : 0;
}

/// How many connections the daemon has open now.
static inline unsigned int mathaloud_mhd_current_connections(const mathaloud_mhd_api *api, struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = api->MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_CURRENT_CONNECTIONS);
    return info != NULL ? info->num_connections : 0;
}

/// The connection's socket (-1 when unknown).
static inline int mathaloud_mhd_connection_fd(const mathaloud_mhd_api *api, struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = api->MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info != NULL ? info->connect_fd : -1;
}

/// The client's numeric address written into `buffer` (empty when unknown).
static inline void mathaloud_mhd_client_address(const mathaloud_mhd_api *api, struct MHD_Connection *connection,
                                                char *buffer, size_t size) {
    buffer[0] = 0;
    const union MHD_ConnectionInfo *info = api->MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (info == NULL || info->client_addr == NULL) return;
    socklen_t length = info->client_addr->sa_family == AF_INET6 ? sizeof(struct sockaddr_in6) : sizeof(struct sockaddr_in);
    if (getnameinfo(info->client_addr, length, buffer, (socklen_t)size, NULL, 0, NI_NUMERICHOST) != 0) buffer[0] = 0;
}

/// Starts a daemon with epoll and a thread pool (each pool thread polls its own connections and runs
/// the handler for them). Returns NULL with `*error` set when the address is not numeric or MHD refuses.
static inline struct MHD_Daemon *mathaloud_mhd_start(const mathaloud_mhd_api *api, const mathaloud_mhd_config *config,
                                                     MHD_AccessHandlerCallback handler, void *handler_cls,
                                                     MHD_RequestCompletedCallback completed, void *completed_cls,
                                                     MHD_NotifyConnectionCallback notify, void *notify_cls,
                                                     const char **error) {
    struct addrinfo hints, *found = NULL;
    memset(&hints, 0, sizeof hints);
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV | AI_PASSIVE;
    char port[8];
    snprintf(port, sizeof port, "%u", (unsigned)config->port);
    if (getaddrinfo(config->address, port, &hints, &found) != 0 || found == NULL) {
        *error = "the address is not a numeric IPv4 or IPv6 address";
        return NULL;
    }
    unsigned int flags = MHD_USE_EPOLL_INTERNAL_THREAD | MHD_USE_ITC;
    if (found->ai_family == AF_INET6) flags |= MHD_USE_IPv6;
    struct MHD_OptionItem options[] = {
        { MHD_OPTION_SOCK_ADDR, 0, found->ai_addr },
        { MHD_OPTION_THREAD_POOL_SIZE, config->threads, NULL },
        { MHD_OPTION_CONNECTION_LIMIT, config->connection_limit, NULL },
        { MHD_OPTION_CONNECTION_TIMEOUT, config->connection_timeout, NULL },
        { MHD_OPTION_PER_IP_CONNECTION_LIMIT, config->per_ip_limit, NULL },
        { MHD_OPTION_CONNECTION_MEMORY_LIMIT, (intptr_t)config->connection_memory, NULL },
        { MHD_OPTION_LISTEN_BACKLOG_SIZE, config->listen_backlog, NULL },
        { MHD_OPTION_NOTIFY_COMPLETED, (intptr_t)completed, completed_cls },
        { MHD_OPTION_NOTIFY_CONNECTION, (intptr_t)notify, notify_cls },
        { config->thread_stack > 0 ? MHD_OPTION_THREAD_STACK_SIZE : MHD_OPTION_END, (intptr_t)config->thread_stack, NULL },
        { MHD_OPTION_END, 0, NULL },
    };
    struct MHD_Daemon *daemon = mathaloud_mhd_start_options(api, flags, handler, handler_cls, options);
    freeaddrinfo(found);
    if (daemon == NULL) *error = "libmicrohttpd could not start (address in use, or not allowed?)";
    return daemon;
}
#endif
