"""Offline tools for reviewing an anyscale-cloud stack: no Pulumi CLI, no credentials."""
