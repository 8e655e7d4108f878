// What must touch the real process, and nothing else: the composition root is `runShop`
// (Root.swift), a function of the arguments, the environment, the streams and a clock.

import ShopAdapters

// Before anything else: no file opened from here on can take a standard descriptor's number.
let standard = RunningProcess.secureStandardDescriptors()
// A reader that closes our pipe, or a file-size limit, makes a write fail (and the command say
// so and what it saved), not a silent death by signal.
RunningProcess.ignoreFatalSignals()
let status = runShop(
  arguments: RunningProcess.arguments(),
  environment: Environment(RunningProcess.environmentValue),
  streams: .process(standard),
  clock: SystemClock())
RunningProcess.exit(status.rawValue)
