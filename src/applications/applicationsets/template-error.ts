/** A template that cannot be rendered: its message says which field and why (Go's own wording where it has one). */
export class TemplateError extends Error {}
