// BestiaryRender: see docs/ARCHITECTURE.md
