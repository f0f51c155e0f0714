import Foundation

// healthprobe-benchmark: see BenchmarkRun (exports), PhoneBenchmark (the live path at phone
// scale), GraphBenchmark (graph sync) and HealthDatabaseBenchmark (reading a Health database). Each measured phase runs in a child process of this
// executable, so that its peak memory is its own.
let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "phase": await BenchmarkPhase.runAsChild(Array(arguments.dropFirst()))
case "phone": PhoneBenchmark(arguments: Array(arguments.dropFirst())).run()
case "graph": GraphBenchmark(arguments: Array(arguments.dropFirst())).run()
case "healthdb": HealthDatabaseBenchmark(arguments: Array(arguments.dropFirst())).run()
default: BenchmarkRun(arguments: arguments).run()
}
