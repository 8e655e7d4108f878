// swift-tools-version: 6.1
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
  traits: [
    // `--traits PostgreSQL` replaces the default traits, so it also turns StaticExecutable off:
    // Debian's libpq has no static form to link.
    .default(enabledTraits: ["StaticExecutable"]),
    .trait(name: "StaticExecutable", description: "Link the release binary fully static."),
    .trait(
      name: "PostgreSQL",
      description: "Orders in PostgreSQL through libpq (a postgres:// --orders); links dynamically."
    ),
  ],
  targets: [
    // The domain: Order, the ports and the PlaceOrder use case; the standard library only.
    .target(name: "ShopCore", swiftSettings: fastStart),
    // libpq's C API, only for the PostgreSQL build: without the trait nothing needs libpq.
    .systemLibrary(
      name: "CLibPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"]), .brew(["libpq"])]),
    // The process's own argc, argv and envp, captured at start-up without reading /proc.
    .target(name: "CProcess"),
    // Files, memory, clocks and report formats behind ShopCore's ports.
    .target(
      name: "ShopAdapters",
      dependencies: [
        "ShopCore", "CProcess", .target(name: "CLibPQ", condition: .when(traits: ["PostgreSQL"])),
      ],
      swiftSettings: fastStart),
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
          .when(platforms: [.linux], configuration: .release, traits: ["StaticExecutable"])),
        // The PostgreSQL build loads libpq, so it can't be static; the Swift runtime still is.
        .unsafeFlags(
          ["-static-stdlib"],
          .when(platforms: [.linux], configuration: .release, traits: ["PostgreSQL"])),
      ]
    ),
    .testTarget(name: "ShopCoreTests", dependencies: ["ShopCore", "ShopTestSupport"]),
    .testTarget(
      name: "ShopAdaptersTests", dependencies: ["ShopAdapters", "ShopCore", "ShopTestSupport"]),
    // The command-line contract end to end, through the root function in-process.
    .testTarget(name: "ShopEndToEndTests", dependencies: ["shop", "ShopTestSupport"]),
    // What needs the real binary in real processes: several at once, kill -9, descriptors,
    // pipes, resource limits, shells and make.
    .testTarget(name: "ShopProcessTests", dependencies: ["shop", "ShopTestSupport"]),
    // The fakes every test shares, private temporary folders, a tiny full disk, the built
    // binary in a sandbox and a throwaway PostgreSQL server.
    .target(
      name: "ShopTestSupport", dependencies: ["ShopCore", "ShopAdapters"],
      path: "Tests/ShopTestSupport"),
  ]
)
