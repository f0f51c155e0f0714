import HealthProbeCLI

await HealthProbeCommand.runMain()
