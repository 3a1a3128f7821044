"""anyscale-cloud components: the ComponentResources built from the stack spec (spec/),
and the builders they call. Importing the package itself loads no SDK: spec/ imports
its leaf module names.py."""
