"""KubeRay and what it works with: the operator chart's values, a batch scheduler, metrics,
authentication roles and a smoke RayJob (docs/what-it-creates.md, KubeRay options).

`install.install_kuberay` is the one entry point (components/addons/component.py calls it); the
other modules build plain data, so tests read them without the Pulumi runtime.
"""
