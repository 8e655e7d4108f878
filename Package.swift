// swift-tools-version: 6.0
import PackageDescription

// `shop place` runs in about a millisecond, and callgrind put two thirds of its instructions
// in the runtime demangling type names to find generic metadata (`[OrderLine]`, `[[UInt8]]`,
// ...). Accessor functions instead of mangled names cut a place from 442k to 323k instructions.
let fastStart: [SwiftSetting] = [
  .unsafeFlags(
    ["-Xfrontend", "-disable-concrete-type-metadata-mangled-name-accessors"],
    .when(configuration: .release))
]

let package = Package(
  name: "shop",
  products: [
    .executable(name: "shop", targets: ["shop"])
  ],
  targets: [
    // The domain: Order, the ports and the PlaceOrder use case; the standard library only.
    .target(name: "ShopCore", swiftSettings: fastStart),
    // Files, memory, clocks and report formats behind ShopCore's ports.
    .target(name: "ShopAdapters", dependencies: ["ShopCore"], swiftSettings: fastStart),
    // main.swift is the composition root: the one place that sees every layer.
    .executableTarget(
      name: "shop",
      dependencies: ["ShopCore", "ShopAdapters"],
      swiftSettings: fastStart,
      linkerSettings: [
        // Start-up dominates `shop place`: a fully static release binary starts in about the time
        // of /bin/true, where one that loads libstdc++ and the Swift runtime takes twice as long.
        // lld's --no-warnings hides glibc's note that static binaries can't dlopen; shop doesn't.
        .unsafeFlags(
          ["-static-executable", "-use-ld=lld", "-Xlinker", "--no-warnings"],
          .when(configuration: .release))
      ]
    ),
    .testTarget(name: "ShopCoreTests", dependencies: ["ShopCore"]),
    .testTarget(
      name: "ShopAdaptersTests", dependencies: ["ShopAdapters", "ShopCore", "ShopTestSupport"]),
    // Runs the built `shop` binary: the command-line contract and its guarantees, end to end.
    .testTarget(name: "ShopEndToEndTests", dependencies: ["shop", "ShopTestSupport"]),
    // Private temporary folders and a tiny full disk, for the tests that touch files.
    .target(name: "ShopTestSupport", path: "Tests/ShopTestSupport"),
  ]
)
