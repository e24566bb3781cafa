import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runs the service as a process does: blocks SIGTERM, SIGINT and SIGHUP before any thread starts
/// (so libmicrohttpd's threads inherit the mask), starts the server, then waits for signals on the
/// calling thread — SIGHUP reloads the rules directory (a broken file keeps the rules in force and
/// logs its file:line:column), SIGTERM or SIGINT stop accepting, let requests in flight finish within
/// the grace period, and return.
public enum ServerProcess {
    /// Serves until SIGTERM or SIGINT. `ready` is called once the server listens (with its port).
    /// Returns the number of requests cut off when the grace period ran out (0 after a clean drain).
    public static func run(_ service: MathAloudService, ready: (HTTPServer) -> Void = { _ in }) throws(HTTPServerError) -> Int {
        var signals = sigset_t()
        sigemptyset(&signals)
        for s in [SIGTERM, SIGINT, SIGHUP] { sigaddset(&signals, s) }
        pthread_sigmask(SIG_BLOCK, &signals, nil)
        let server = try service.start()
        service.log.event("listening", ["address": service.configuration.address, "port": String(server.port),
                                        "threads": String(service.configuration.threads)])
        ready(server)
        while true {
            var received: Int32 = 0
            guard sigwait(&signals, &received) == 0 else { continue }
            if received == SIGHUP {
                service.reloadRules()
                continue
            }
            service.log.event("draining", ["signal": received == SIGTERM ? "SIGTERM" : "SIGINT",
                                           "inFlight": String(server.requestsInFlight),
                                           "graceSeconds": String(service.configuration.drainGrace)])
            let left = server.drain(grace: service.configuration.drainGrace)
            service.log.event("stopped", ["cutOff": String(left)])
            return left
        }
    }
}
