"""anyscale-cloud components: the ComponentResources built from the stack spec (config/),
and the builders they call. Importing the package itself loads no SDK: config/ imports
its leaf module names.py."""
