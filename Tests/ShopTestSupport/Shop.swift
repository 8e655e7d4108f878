import Foundation

/// What one run of the binary did.
public struct Run: CustomStringConvertible {
  public let status: Int32
  public let stdout: String
  public let stderr: String

  public init(status: Int32, stdout: String, stderr: String) {
    self.status = status
    self.stdout = stdout
    self.stderr = stderr
  }

  public var description: String { "exit \(status)\nstdout: \(stdout)\nstderr: \(stderr)" }
}

/// The built `shop` binary in a private sandbox: its own HOME, no XDG or SHOP variables from
/// the machine, so no test can read or write the real home folder. For ShopProcessTests and
/// the PostgreSQL suites: everything else runs the root in-process (RootHarness).
public final class Shop {
  /// `shop` is built into the same products folder as the tests: on Linux the test bundle is
  /// an executable there, on macOS a `.xctest` folder there. `SHOP_BINARY` overrides both.
  public static let binary: String = {
    if let binary = ProcessInfo.processInfo.environment["SHOP_BINARY"], !binary.isEmpty {
      return binary
    }
    var products = Bundle(for: Shop.self).bundleURL
    if products.pathExtension == "xctest" { products.deleteLastPathComponent() }
    return products.appendingPathComponent("shop").path
  }()

  public let folder: TemporaryFolder
  public var home: String { folder.file("home") }
  public var defaultOrders: String { home + "/.local/share/shop/orders.jsonl" }
  public private(set) var runs = 0

  public init() throws {
    // A test that writes to a batch's standard input after the batch exited (a replaced file
    // ends it with 74) must see EPIPE, not die of SIGPIPE with every test of its run.
    signal(SIGPIPE, SIG_IGN)
    folder = try TemporaryFolder(on: .disk)
    try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
  }

  /// Runs `shop arguments` to completion, with `input` on standard input (empty if nil).
  @discardableResult
  public func run(_ arguments: [String], input: String? = nil, environment: [String: String] = [:])
    throws -> Run
  {
    try spawn(
      arguments.map { Array($0.utf8) }, input: Array((input ?? "").utf8), environment: environment,
      through: []
    ).run
  }

  @discardableResult
  public func run(_ arguments: String...) throws -> Run {
    try run(arguments)
  }

  /// Runs `script` with `/bin/sh` in the sandbox, `$SHOP` naming the binary: for what only a
  /// shell can arrange, such as a closed descriptor (`>&-`) or a pipe into `head`.
  @discardableResult
  public func shell(_ script: String, input: String? = nil) throws -> Run {
    try spawn(
      [Array("-c".utf8), Array(script.utf8)], input: Array((input ?? "").utf8),
      environment: ["SHOP": Shop.binary], through: [], executable: "/bin/sh"
    ).run
  }

  public func start(
    _ arguments: [String], input: Data?, environment: [String: String] = [:],
    executable: String = Shop.binary
  ) throws -> Started {
    let stdin = folder.file("stdin.\(runs + 1)")
    try (input ?? Data()).write(to: URL(fileURLWithPath: stdin))
    return try launch(
      arguments, input: FileHandle(forReadingAtPath: stdin) as Any, environment, executable)
  }

  /// As ``start(_:input:environment:executable:)`` for `shop`, with standard input a pipe the
  /// test feeds through the handle returned. Only the process reads it, so the process's end
  /// breaks the pipe, and a write after it fails rather than blocks.
  public func startFed(_ arguments: [String], environment: [String: String] = [:]) throws
    -> (started: Started, input: FileHandle)
  {
    signal(SIGPIPE, SIG_IGN)  // Writing to an ended process must fail, not kill the tests.
    let pipe = Pipe()
    let started = try launch(arguments, input: pipe, environment, Shop.binary)
    try pipe.fileHandleForReading.close()
    return (started, pipe.fileHandleForWriting)
  }

  /// Runs `executable` in the sandbox, its output and errors going to files of their own.
  private func launch(
    _ arguments: [String], input: Any, _ environment: [String: String], _ executable: String
  ) throws -> Started {
    runs += 1
    let stdout = folder.file("stdout.\(runs)")
    let stderr = folder.file("stderr.\(runs)")
    try Data().write(to: URL(fileURLWithPath: stdout))
    try Data().write(to: URL(fileURLWithPath: stderr))
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.currentDirectoryURL = URL(fileURLWithPath: folder.path)
    process.arguments = arguments
    process.environment = ["HOME": home, "PATH": "/usr/bin:/bin", "LC_ALL": "C"].merging(
      environment
    ) { $1 }
    process.standardInput = input
    process.standardOutput = FileHandle(forWritingAtPath: stdout)
    process.standardError = FileHandle(forWritingAtPath: stderr)
    try process.run()
    return Started(process: process, stdout: stdout, stderr: stderr)
  }

  public struct Started {
    public let process: Process
    public let stdout: String
    public let stderr: String

    init(process: Process, stdout: String, stderr: String) {
      self.process = process
      self.stdout = stdout
      self.stderr = stderr
    }

    /// What the process has written to standard output so far.
    public var output: String { Shop.text(of: stdout) }

    /// As ``finish()``, but a process still running after `seconds` is killed (SIGKILL), so
    /// a test that would hang fails instead: its status is then 137.
    public func finish(within seconds: Double) -> Run {
      let deadline = Date().addingTimeInterval(seconds)
      while process.isRunning && Date() < deadline { usleep(10_000) }
      if process.isRunning { kill(process.processIdentifier, SIGKILL) }
      return finish()
    }

    /// Waits for the process to end, and what it wrote.
    public func finish() -> Run {
      process.waitUntilExit()
      let read = Shop.text(of:)
      let status =
        process.terminationReason == .uncaughtSignal
        ? 128 + process.terminationStatus : process.terminationStatus
      return Run(status: status, stdout: read(stdout), stderr: read(stderr))
    }
  }

  public func lines(of path: String) throws -> [Substring] {
    try String(decoding: Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
      .split(separator: "\n")
  }
}

extension Shop {
  /// Runs `shop` with arguments as raw bytes (invalid UTF-8 included, which `Process` can't
  /// pass), through posix_spawn. `signal` is set when the run died by a signal.
  public func runBytes(_ arguments: [[UInt8]], input: [UInt8], environment: [String: String] = [:])
    throws -> (run: Run, signal: Int32?)
  {
    try spawn(arguments, input: input, environment: environment, through: [])
  }

  /// GNU time, which reads the peak memory of the one process it forks and runs. A process's
  /// own peak can't be read by spawning it from here: spawning borrows this process's memory
  /// until `exec`, and Linux counts that borrowed peak as the child's.
  public static let gnuTime = "/usr/bin/time"
  public static var canMeasureMemory: Bool {
    #if os(Linux)
      return FileManager.default.isExecutableFile(atPath: gnuTime)
    #else
      return false
    #endif
  }

  /// Runs `shop` with byte arguments, and reads the peak memory of that one process.
  public func runMeasured(
    _ arguments: [[UInt8]], input: [UInt8], environment: [String: String] = [:]
  ) throws -> (run: Run, peakKiB: Int) {
    let peak = folder.file("peak.\(runs + 1)")
    let (run, _) = try spawn(
      arguments, input: input, environment: environment,
      through: [Shop.gnuTime, "-f", "%M", "-o", peak])
    let text = try String(contentsOfFile: peak, encoding: .utf8)
    let kibibytes = text.split(separator: "\n").last.flatMap { Int($0) }
    guard let kibibytes else { throw CocoaError(.fileReadCorruptFile) }
    return (run, kibibytes)
  }

  typealias AddChdir =
    @convention(c) (
      UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>
    ) -> Int32

  /// glibc's posix_spawn_file_actions_addchdir_np (2.29 on), which Swift's Glibc module does
  /// not show: with it a run starts `shop` alone, without starting a shell first.
  private static let addChdir: AddChdir? = {
    #if os(Linux)
      guard let symbol = dlsym(nil, "posix_spawn_file_actions_addchdir_np") else { return nil }
      return unsafeBitCast(symbol, to: AddChdir.self)
    #else
      return nil
    #endif
  }()

  /// Runs `executable` to its end. A run waited for reuses the same three files, truncated,
  /// where one started alongside others gets its own: making thousands of new files costs more
  /// than the runs (ext4 searches for a free inode among the ones just deleted).
  private func spawn(
    _ arguments: [[UInt8]], input: [UInt8], environment: [String: String], through: [String],
    executable: String = Shop.binary
  ) throws -> (run: Run, signal: Int32?) {
    runs += 1
    let stdin = folder.file("run.stdin")
    let stdout = folder.file("run.stdout")
    let stderr = folder.file("run.stderr")
    try Shop.overwrite(stdin, with: input)
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, stdin, O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    let variables = ["HOME": home, "PATH": "/usr/bin:/bin", "LC_ALL": "C"].merging(environment) {
      $1
    }
    // The child moves into the sandbox, so relative paths among fuzzed arguments land there
    // and never in the work tree: by itself where glibc can, else through a shell whose `exec`
    // leaves `shop` as the process we wait for.
    var command = through + [executable]
    if let addChdir = Shop.addChdir {
      let moved = addChdir(&actions, folder.path)
      guard moved == 0 else { throw POSIXError(POSIXErrorCode(rawValue: moved) ?? .EIO) }
    } else {
      command = ["/bin/sh", "-c", #"cd "$0" || exit 99; exec "$@""#, folder.path] + command
    }
    let argv = (command.map { Array($0.utf8) } + arguments).map {
      bytes -> UnsafeMutablePointer<CChar>? in
      let copy = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count + 1)
      for (index, byte) in bytes.enumerated() { copy[index] = CChar(bitPattern: byte) }
      copy[bytes.count] = 0
      return copy
    }
    let envp = variables.map { strdup("\($0.key)=\($0.value)") }
    defer {
      for argument in argv { argument?.deallocate() }
      for variable in envp { free(variable) }
    }
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, command[0], &actions, nil, argv + [nil], envp + [nil])
    guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EIO) }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0, errno == EINTR {}
    let read = Shop.text(of:)
    let signal = status & 0x7F
    let exit = (status >> 8) & 0xFF
    return (
      Run(status: signal == 0 ? exit : 128 + signal, stdout: read(stdout), stderr: read(stderr)),
      signal == 0 ? nil : signal
    )
  }
}

extension Shop {
  /// What a run wrote to the file at `path`, as text (empty if there is none).
  static func text(of path: String) -> String {
    String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self)
  }

  /// Writes `bytes` over the file at `path`, keeping its inode.
  static func overwrite(_ path: String, with bytes: [UInt8]) throws {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    defer { close(descriptor) }
    var written = 0
    while written < bytes.count {
      let count = bytes[written...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
      if count < 0, errno == EINTR { continue }
      guard count > 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
      written += count
    }
  }
}

extension Shop {
  /// The numbers of the orders a run reported, from its `order N for P` lines.
  public static func reportedNumbers(_ stdout: String) -> [Int] {
    stdout.split(separator: "\n").compactMap { line in
      line.hasPrefix("order ")
        ? line.split(separator: " ").dropFirst().first.flatMap { Int($0) } : nil
    }
  }

  /// Runs `shop batch` with `arguments`, its standard input a pipe fed `chunks` a few
  /// milliseconds apart (so it commits many small groups), and kills it with SIGKILL after
  /// `delay` microseconds, wherever it is among writes, syncs and reports.
  /// - Returns: the numbers of the orders it reported before it died.
  public func batchKilled(_ arguments: [String], feeding chunks: [Data], after delay: useconds_t)
    throws -> [Int]
  {
    let (batch, writer) = try startFed(["batch"] + arguments)
    Thread.detachNewThread {
      for chunk in chunks {
        guard (try? writer.write(contentsOf: chunk)) != nil else { break }
        usleep(2000)
      }
      try? writer.close()
    }
    usleep(delay)
    kill(batch.process.processIdentifier, SIGKILL)
    return Shop.reportedNumbers(batch.finish().stdout)
  }
}

extension Shop {
  /// `workers` shell loops, not yet started, each placing `count` orders into `orders` with
  /// one `shop place` per order (`pen=1 lamp=W`, W the loop's number); a loop stops at its
  /// first failure, so a status other than 0 means some command failed.
  public static func placingLoops(_ workers: Int, count: Int, into orders: String) -> [Process] {
    (1...workers).map { worker in
      let process = Process()
      process.executableURL = URL(fileURLWithPath: "/bin/sh")
      process.arguments = [
        "-c",
        #"for i in $(seq "$3"); do "$0" place --orders "$1" pen=1 lamp=$2 >/dev/null || exit 1; done"#,
        Shop.binary, orders, "\(worker)", "\(count)",
      ]
      return process
    }
  }
}
