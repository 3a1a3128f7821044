"""The pack's declarations by subject; policies.py puts them in one list."""
