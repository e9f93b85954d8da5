"""Jupyter kernels over IPC (:mod:`~educatalog.jupyter.kernels`) and a child process that ends
with its parent (:mod:`~educatalog.jupyter.tethered`).
"""
