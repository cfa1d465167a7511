"""A new register project: the files `register init` writes.

Takes a project name and a date; gives every file of a working project as text, by path
relative to the project folder (`project.files`): mkdocs.yml, sources.yaml and one example
register, the docs page and JSON Schemas, a CI workflow and a pre-commit configuration.
Writing them is `api.init`'s part.
"""
