import BestiaryCLI

await BestiaryCommand.main()
