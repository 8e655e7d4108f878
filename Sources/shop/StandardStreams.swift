import ShopAdapters

/// The standard streams as ports: what the root writes reports, listings and errors to, and
/// reads a batch from. main.swift hands in the process's descriptors; a test hands in buffers.
struct StandardStreams {
  var input: any ByteSource
  var output: any ByteSink
  var errors: any ByteSink
  /// Standard input or output was closed when the process started (and is held on /dev/null).
  var inputWasClosed = false
  var outputWasClosed = false
  /// The regular files standard output and error write to, by name: no orders file may be one.
  var files: [(name: String, file: FileIdentity)] = []

  /// The process's own descriptors 0, 1 and 2, once secured.
  static func process(_ standard: StandardDescriptors) -> StandardStreams {
    let files = [
      ("standard output", Descriptor.standardOutput), ("standard error", .standardError),
    ]
    .compactMap { name, descriptor in descriptor.regularFile.map { (name: name, file: $0) } }
    return StandardStreams(
      input: Descriptor.standardInput, output: Descriptor.standardOutput,
      errors: Descriptor.standardError, inputWasClosed: standard.inputWasClosed,
      outputWasClosed: standard.outputWasClosed, files: files)
  }

  /// Standard output for reports of saved orders: a reader that goes away is an error.
  func reports() throws(StreamError) -> DescriptorOutput {
    try output(.isAnError)
  }

  /// Standard output for a listing or help: a reader that goes away ends it quietly.
  func listing() throws(StreamError) -> DescriptorOutput {
    try output(.endsTheCommand)
  }

  /// Standard output, refused when it was closed: nothing is placed or listed whose report
  /// nobody can read.
  private func output(_ readerGone: DescriptorOutput.ReaderGone) throws(StreamError)
    -> DescriptorOutput
  {
    guard !outputWasClosed else {
      throw .cannotWrite(name: "standard output", SystemError.closedDescriptor)
    }
    return DescriptorOutput(descriptor: output, name: "standard output", readerGone: readerGone)
  }

  /// Standard input for a batch, refused when it was closed.
  func batchInput() throws(StreamError) -> BatchInput {
    guard !inputWasClosed else {
      throw .cannotRead(name: "standard input", SystemError.closedDescriptor)
    }
    return BatchInput(descriptor: input, name: "standard input")
  }

  /// Whether standard error writes to the file at `path`: then no error may be printed, or it
  /// would land among the orders (`2>> orders.jsonl`, `&>> orders.jsonl`).
  func errorsWriteTo(_ path: FilePath) -> Bool {
    guard let stream = files.first(where: { $0.name == "standard error" }) else { return false }
    return (try? System.identity(of: path)) == stream.file
  }

  /// The name of the first standard stream that writes to the file at `path`, or nil. Only
  /// when one of them is a regular file is `path` looked up (`stat`, never opened).
  func stream(writingTo path: FilePath) -> String? {
    guard !files.isEmpty, let identity = try? System.identity(of: path) else { return nil }
    return files.first { $0.file == identity }?.name
  }
}
