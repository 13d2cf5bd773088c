// BestiarySite: see docs/ARCHITECTURE.md
