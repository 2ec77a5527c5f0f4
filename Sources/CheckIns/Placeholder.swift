// Placeholder; the CheckIns module replaces it.
