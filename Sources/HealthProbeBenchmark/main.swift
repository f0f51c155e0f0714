import Foundation
import HealthProbeKit

// healthprobe-benchmark: see BenchmarkRun (exports), PhoneBenchmark (the live path at phone
// scale), GraphBenchmark (graph sync), HealthDatabaseBenchmark (reading a Health database) and
// PairBenchmark (an export and a Health database of the same samples). Each measured phase runs in a child process of this
// executable, so that its peak memory is its own.
FreedMemory.returnPromptly()
let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "phase": await BenchmarkPhase.runAsChild(Array(arguments.dropFirst()))
case "phone": PhoneBenchmark(arguments: Array(arguments.dropFirst())).run()
case "graph": GraphBenchmark(arguments: Array(arguments.dropFirst())).run()
case "healthdb": HealthDatabaseBenchmark(arguments: Array(arguments.dropFirst())).run()
case "pair": PairBenchmark(arguments: Array(arguments.dropFirst())).run()
default: BenchmarkRun(arguments: arguments).run()
}
