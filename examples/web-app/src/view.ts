// The page's elements, made with the DOM rather than HTML strings: nothing the API sends is ever
// parsed as HTML.

/** A new element with these properties and children. */
export function el<K extends keyof HTMLElementTagNameMap>(tag: K, properties: Partial<HTMLElementTagNameMap[K]> = {}, ...children: Array<Node | string>): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  Object.assign(element, properties);
  element.append(...children);
  return element;
}

/** Replaces the items of a list with one `<li>` per line. */
export function showLines(list: HTMLUListElement, lines: readonly string[]): void {
  list.replaceChildren(...lines.map((line) => el('li', { textContent: line })));
}
