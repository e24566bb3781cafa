import Foundation
import MathAloud
import MathAloudServer

/// `mathaloud serve`: the HTTP API (see the README's "mathaloud serve" section).
enum ServeCommand {
    static var usage: String {
        var text = """
        usage: mathaloud serve [--address ADDR] [--port N] [options]
          Serves the HTTP API (POST /v1/speech, /v1/labels, /v1/parse, /v1/audio, /v1/render, /v1/speech:batch;
          GET /v1/locales, /v1/styles, /openapi.json, /healthz, /readyz, /metrics) until SIGTERM or SIGINT.
          SIGHUP reloads --rules-dir. Every option can also be set by its environment variable.

        """
        for s in ServerConfiguration.settings {
            let flag = "  --\(s.name) \(s.value)"
            text += flag.padding(toLength: max(flag.count + 1, 36), withPad: " ", startingAt: 0) + s.help
                + " [\(s.environmentVariable)]\n"
        }
        text += "exit codes: 0 stopped by SIGTERM/SIGINT after draining, 2 usage error, 4 rules could not be loaded, 7 the server could not start"
        return text
    }

    static func run(_ arguments: [String]) throws(UsageError) -> ExitCode {
        let names = Set(ServerConfiguration.settings.map { "--" + $0.name })
        let args = try CommandLineArguments(arguments, valued: names, flags: ["--help", "-h"])
        if args.flag("--help") || args.flag("-h") { print(usage); return .success }
        if let extra = args.positionals.first { throw UsageError("serve takes no argument ('\(extra)')") }
        var configuration = ServerConfiguration()
        do {
            try configuration.applyEnvironment()
            for setting in ServerConfiguration.settings {
                if let value = args.value("--" + setting.name) { try configuration.set(setting.name, value) }
            }
        } catch {
            throw UsageError(error.description)
        }
        let service: MathAloudService
        do {
            service = try MathAloudService(configuration: configuration)
        } catch {
            Output.error("mathaloud serve: \(error)\n")
            return .rules
        }
        do {
            _ = try ServerProcess.run(service) { server in
                Output.error("mathaloud serve: listening on http://\(configuration.address.contains(":") ? "[\(configuration.address)]" : configuration.address):\(server.port)\n")
            }
        } catch {
            Output.error("mathaloud serve: \(error)\n")
            return .server
        }
        return .success
    }
}
