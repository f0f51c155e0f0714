import HealthProbeCLI
import HealthProbeConnections

// healthprobe-connect: `healthprobe` itself, with the commands that talk to another program
// (`mcp`, `graph`) able to run; `healthprobe` hands those over to it (ConnectionCommands).
HealthProbeConnections.install()
await HealthProbeCommand.runMain()
