// swift-tools-version: 6.1
import PackageDescription

// `shop place` runs in about a millisecond, and callgrind put two thirds of its instructions
// in the runtime demangling type names to find generic metadata (`[OrderLine]`, `[[UInt8]]`,
// ...). Accessor functions instead of mangled names cut a place from 442k to 323k instructions.
// Nothing here uses Swift concurrency or Regex. Without their implicit imports the binary
// links neither library, nor libdispatch and libBlocksRuntime behind the first, and the
// debug binary, which loads them as shared libraries, starts in about 1 ms less: it is
// spawned thousands of times by the process tests.
let fastStart: [SwiftSetting] = [
  .unsafeFlags(
    ["-Xfrontend", "-disable-concrete-type-metadata-mangled-name-accessors"],
    .when(configuration: .release)),
  // `swift test` builds debug, and its tests run these three targets over tens of thousands of
  // orders, in-process and as the spawned binary: optimised, the in-process tests take a
  // quarter of their time and the reliability suite half. DEBUG is still defined (`--version`
  // says debug), and overflow and bounds still trap as in any build but -Ounchecked. Swift
  // 6.3.1's FunctionSignatureOpts pass crashes outside whole-module builds on a generic
  // function with typed throws (`PrefixMatch.literal`), so it is left out of debug builds.
  .unsafeFlags(
    ["-O", "-Xllvm", "-sil-disable-pass=function-signature-opts"], .when(configuration: .debug)),
  .unsafeFlags([
    "-Xfrontend", "-disable-implicit-concurrency-module-import",
    "-Xfrontend", "-disable-implicit-string-processing-module-import",
  ]),
]

let package = Package(
  name: "shop",
  products: [
    .executable(name: "shop", targets: ["shop"])
  ],
  traits: [
    .default(enabledTraits: ["StaticExecutable"]),
    .trait(name: "StaticExecutable", description: "Link the release binary fully static."),
  ],
  targets: [
    // The domain (Model), the ports it owns (Ports) and the use cases (UseCases); the standard
    // library only.
    .target(name: "ShopCore", swiftSettings: fastStart),
    // What the command line and the adapters share, and neither owns: exit statuses, paths as
    // bytes, how text is quoted on a terminal, decimal integers, UTC times and time arguments,
    // the cart syntax, the look of a PostgreSQL URI. Plain values and rules, no I/O.
    .target(name: "ShopConventions", dependencies: ["ShopCore"], swiftSettings: fastStart),
    // The process's own argc, argv and envp, captured at start-up without reading /proc.
    .target(name: "CProcess"),
    // Files, memory, PostgreSQL (libpq, loaded at run time), clocks and report formats behind
    // ShopCore's ports.
    .target(
      name: "ShopAdapters", dependencies: ["ShopCore", "ShopConventions", "CProcess"],
      swiftSettings: fastStart),
    // The command line as a value: its description, the parser, help, the manual, completions
    // and usage errors, and the words `--explain` prints for the root's decisions. It reads
    // arguments into an `Invocation`, knows no adapter, and builds none.
    .target(
      name: "ShopCommandLine", dependencies: ["ShopCore", "ShopConventions"],
      swiftSettings: fastStart),
    // The composition root (Root.swift): the one place that sees every layer and builds the
    // adapters and use cases; main.swift hands it the real process.
    .executableTarget(
      name: "shop",
      dependencies: ["ShopCore", "ShopConventions", "ShopAdapters", "ShopCommandLine"],
      swiftSettings: fastStart,
      linkerSettings: [
        // Start-up dominates `shop place`: a fully static release binary starts in about the time
        // of /bin/true, where one that loads libstdc++ and the Swift runtime takes twice as long.
        // It still loads libpq with dlopen for a postgres:// store, which glibc allows when the
        // machine's libc.so.6 is the version linked in; lld's --no-warnings hides glibc's note
        // saying so.
        .unsafeFlags(
          ["-static-executable", "-use-ld=lld", "-Xlinker", "--no-warnings"],
          .when(platforms: [.linux], configuration: .release, traits: ["StaticExecutable"]))
      ]
    ),
    .testTarget(name: "ShopCoreTests", dependencies: ["ShopCore", "ShopTestSupport"]),
    .testTarget(
      name: "ShopAdaptersTests",
      dependencies: ["ShopAdapters", "ShopConventions", "ShopCore", "ShopTestSupport"]),
    // The command-line contract end to end, through the root function in-process.
    .testTarget(
      name: "ShopEndToEndTests",
      dependencies: ["shop", "ShopCommandLine", "ShopConventions", "ShopTestSupport"]),
    // What needs the real binary in real processes: several at once, kill -9, descriptors,
    // pipes, resource limits, shells and make.
    .testTarget(
      name: "ShopProcessTests",
      dependencies: [
        "shop", "ShopCommandLine", "ShopAdapters", "ShopConventions", "ShopCore", "ShopTestSupport",
      ]),
    // The fakes every test shares, private temporary folders, a tiny full disk, the built
    // binary in a sandbox and a throwaway PostgreSQL server.
    .target(
      name: "ShopTestSupport", dependencies: ["ShopCore", "ShopConventions", "ShopAdapters"],
      path: "Tests/ShopTestSupport"),
  ]
)
