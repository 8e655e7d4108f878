import ShopConventions

/// Standard output and standard error, named: what an error says of the one that writes
/// where it must not.
public enum StandardStream: Sendable, CaseIterable {
  case output, errors

  public var name: String {
    switch self {
    case .output: "standard output"
    case .errors: "standard error"
    }
  }
}

/// The standard streams as ports: what the root writes reports, listings and errors to, and
/// reads a batch from. main.swift hands in the process's descriptors; a test hands in buffers.
public struct StandardStreams {
  public var input: any ByteSource
  public var output: any ByteSink
  public var errors: any ByteSink
  /// Standard input or output was closed when the process started (and is held on /dev/null).
  public var inputWasClosed: Bool
  public var outputWasClosed: Bool
  /// The regular files standard output and error write to: no orders file may be one.
  public var files: [(stream: StandardStream, file: FileIdentity)]

  public init(
    input: any ByteSource, output: any ByteSink, errors: any ByteSink,
    inputWasClosed: Bool = false, outputWasClosed: Bool = false,
    files: [(stream: StandardStream, file: FileIdentity)] = []
  ) {
    self.input = input
    self.output = output
    self.errors = errors
    self.inputWasClosed = inputWasClosed
    self.outputWasClosed = outputWasClosed
    self.files = files
  }

  /// The process's own descriptors 0, 1 and 2, once secured.
  public static func process(_ standard: StandardDescriptors) -> StandardStreams {
    let files = [(StandardStream.output, Descriptor.standardOutput), (.errors, .standardError)]
      .compactMap { stream, descriptor in
        descriptor.regularFile.map { (stream: stream, file: $0) }
      }
    return StandardStreams(
      input: Descriptor.standardInput, output: Descriptor.standardOutput,
      errors: Descriptor.standardError, inputWasClosed: standard.inputWasClosed,
      outputWasClosed: standard.outputWasClosed, files: files)
  }

  /// Standard output for reports of saved orders: a reader that goes away is an error.
  public func reports() throws(StreamError) -> DescriptorOutput {
    try output(.isAnError)
  }

  /// Standard output for a listing or help: a reader that goes away ends it quietly.
  public func listing() throws(StreamError) -> DescriptorOutput {
    try output(.endsTheCommand)
  }

  /// Standard error, for errors and the notes of a listing.
  public func errorOutput() -> DescriptorOutput {
    DescriptorOutput(descriptor: errors, name: StandardStream.errors.name)
  }

  /// Standard output, refused when it was closed: nothing is placed or listed whose report
  /// nobody can read.
  private func output(_ readerGone: DescriptorOutput.ReaderGone) throws(StreamError)
    -> DescriptorOutput
  {
    let name = StandardStream.output.name
    guard !outputWasClosed else { throw .cannotWrite(name: name, SystemError.closedDescriptor) }
    return DescriptorOutput(descriptor: output, name: name, readerGone: readerGone)
  }

  /// Standard input, for a batch (the root wraps it in a ``BatchInput``), refused when it was
  /// closed.
  public func readableInput() throws(StreamError) -> any ByteSource {
    guard !inputWasClosed else {
      throw .cannotRead(name: StandardStreams.inputName, SystemError.closedDescriptor)
    }
    return input
  }

  /// What an error calls standard input.
  public static let inputName = "standard input"

  /// Whether `stream` writes to the file at `path`: then what it carries would land there.
  public func writes(_ stream: StandardStream, to path: FilePath) -> Bool {
    guard let file = files.first(where: { $0.stream == stream })?.file else { return false }
    return (try? System.identity(of: path)) == file
  }

  /// The first standard stream that writes to the file at `path`, or nil. Only when one of
  /// them is a regular file is `path` looked up (`stat`, never opened).
  public func stream(writingTo path: FilePath) -> StandardStream? {
    guard !files.isEmpty, let identity = try? System.identity(of: path) else { return nil }
    return files.first { $0.file == identity }?.stream
  }
}
