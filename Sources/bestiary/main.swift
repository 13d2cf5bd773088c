import BestiaryCLI
import Foundation

let status = await BestiaryCommand.run(arguments: Array(CommandLine.arguments.dropFirst()))
exit(status)
