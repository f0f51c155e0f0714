import Foundation

// healthprobe-benchmark: see BenchmarkRun. Each measured phase runs in a child process of this
// executable, so that its peak memory is its own.
let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "phase" {
    BenchmarkPhase.runAsChild(Array(arguments.dropFirst()))
} else {
    BenchmarkRun(arguments: arguments).run()
}
