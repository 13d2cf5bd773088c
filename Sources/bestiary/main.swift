import BestiaryCLI
import BestiaryStorage
import Foundation

ProcessMemory.returnLargeBlocksPromptly()
// A reader that went away (`bestiary build 2>&1 | head -1`) ends no build half way: the writes
// fail instead, and the build goes on to its end.
signal(SIGPIPE, SIG_IGN)
BestiaryCommand.runsAs(executable: DetachedProcess.runningExecutable)
let status = await BestiaryCommand.run(arguments: Array(CommandLine.arguments.dropFirst()))
exit(status)
