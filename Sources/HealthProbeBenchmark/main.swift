import Foundation

// healthprobe-benchmark: see BenchmarkRun (exports) and PhoneBenchmark (the live path at phone
// scale). Each measured phase runs in a child process of this executable, so that its peak
// memory is its own.
let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "phase": await BenchmarkPhase.runAsChild(Array(arguments.dropFirst()))
case "phone": PhoneBenchmark(arguments: Array(arguments.dropFirst())).run()
default: BenchmarkRun(arguments: arguments).run()
}
