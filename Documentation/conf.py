# SPDX-License-Identifier: GPL-2.0
# Minimal Sphinx configuration for the mlx5x documentation.
#   python3 -m sphinx -W -b html Documentation build/docs

project = 'mlx5x'
copyright = 'mlx5x developers'
root_doc = master_doc = 'index'
exclude_patterns = []
highlight_language = 'none'
html_theme = 'alabaster'
html_show_sourcelink = False
