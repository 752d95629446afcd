// Courier itself comes with this add-on: `import CourierOpenAPI` alone gives `Provider`, `TargetType`
// and the rest, so a README snippet compiles with the one import it shows.
@_exported import Courier
