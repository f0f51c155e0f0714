// The archive's vocabulary — records, captures, anomalies, the store — is the kit's: a face that
// imports the kit reads it without importing the archive, whose SQL it never sees.
@_exported import HealthProbeArchive
