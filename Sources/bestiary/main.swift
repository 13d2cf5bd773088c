import BestiaryCLI
import BestiaryStorage
import Foundation

ProcessMemory.returnLargeBlocksPromptly()
let status = await BestiaryCommand.run(arguments: Array(CommandLine.arguments.dropFirst()))
exit(status)
