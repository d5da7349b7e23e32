/**
 * First-in first-out list with O(1) amortised `shift` (an array with a moving head, compacted when
 * more than half of it is consumed); `Array#shift` is O(n) on large arrays.
 */
export class Fifo<T> {
  #items: (T | undefined)[] = [];
  #head = 0;

  get size(): number {
    return this.#items.length - this.#head;
  }

  push(item: T): void {
    this.#items.push(item);
  }

  /** Puts an item back in front (a retry keeps its place). */
  unshift(item: T): void {
    if (this.#head > 0) this.#items[--this.#head] = item;
    else this.#items.unshift(item);
  }

  /** The item at `index` from the front, without removing it. */
  at(index: number): T | undefined {
    return index >= 0 && index < this.size ? this.#items[this.#head + index] : undefined;
  }

  shift(): T | undefined {
    if (this.#head >= this.#items.length) return undefined;
    const item = this.#items[this.#head];
    this.#items[this.#head++] = undefined;
    if (this.#head === this.#items.length) {
      this.#items = [];
      this.#head = 0;
    } else if (this.#head > 1024 && this.#head * 2 > this.#items.length) {
      this.#items = this.#items.slice(this.#head);
      this.#head = 0;
    }
    return item;
  }

  /** Removes and returns the item at `index` from the front. */
  removeAt(index: number): T | undefined {
    if (index === 0) return this.shift();
    if (index < 0 || index >= this.size) return undefined;
    return this.#items.splice(this.#head + index, 1)[0];
  }

  /** Empties the list, returning what it held, front first. */
  takeAll(): T[] {
    const items = this.#items.slice(this.#head) as T[];
    this.#items = [];
    this.#head = 0;
    return items;
  }
}
