/* global window, console, setTimeout */
/**
 * WhatsApp Web double, part 1: the module registry, loud modules, events and Backbone-like
 * models/collections. Every part is a plain script; the page builder inlines them in order into
 * one HTML page after `window.__doubleBuild` (the build descriptor). `D` is the double's private
 * namespace; `window.__waDouble` (phone.js) is the only control surface tests use.
 */
(function () {
  const D = (window.__double = { modules: {}, build: window.__doubleBuild });

  /** Anything a module does not model throws with the module and member name: never undefined. */
  const IGNORED = new Set(['then', 'toJSON', 'constructor', '$$typeof', 'prototype']);
  function loud(name, target) {
    return new Proxy(target, {
      get(object, prop, receiver) {
        if (typeof prop === 'symbol' || IGNORED.has(prop) || prop in object) {
          return Reflect.get(object, prop, receiver);
        }
        throw new Error(`WA double: ${name}.${String(prop)} is not modelled`);
      },
    });
  }

  D.define = (name, value) => {
    D.modules[name] = loud(name, value);
    return D.modules[name];
  };

  window.require = (name) => {
    const module = D.modules[name];
    if (!module) throw new Error(`WA double: module ${name} is not modelled`);
    return module;
  };
  window.Debug = { VERSION: D.build.version };

  /** on/off/once/trigger with space-separated names, like Backbone. */
  const listeners = new WeakMap();
  class Emitter {
    on(names, fn) {
      let map = listeners.get(this);
      if (!map) listeners.set(this, (map = new Map()));
      for (const name of names.split(' ')) {
        if (!map.has(name)) map.set(name, []);
        map.get(name).push(fn);
      }
      return this;
    }
    off(names, fn) {
      const map = listeners.get(this);
      if (!map) return this;
      for (const name of names.split(' ')) {
        map.set(
          name,
          (map.get(name) || []).filter((f) => fn && f !== fn && f.original !== fn),
        );
      }
      return this;
    }
    once(name, fn) {
      const wrapper = (...args) => {
        this.off(name, wrapper);
        return fn(...args);
      };
      wrapper.original = fn;
      return this.on(name, wrapper);
    }
    listenerCount(name) {
      return (listeners.get(this)?.get(name) || []).length;
    }
    trigger(name, ...args) {
      for (const fn of [...(listeners.get(this)?.get(name) || [])]) {
        try {
          fn(...args);
        } catch (error) {
          console.error(`WA double: a "${name}" listener failed`, error);
        }
      }
      for (const parent of this.parents?.() || []) parent.trigger(name, ...args);
    }
  }
  D.Emitter = Emitter;

  /** Attributes are plain own properties; `set` fires `change:<key>` (model, value, previous). */
  const parents = new WeakMap();
  class Model extends Emitter {
    constructor(attributes = {}) {
      super();
      Object.assign(this, attributes);
    }
    parents() {
      return parents.get(this) || [];
    }
    /** Assigns every attribute first, then fires `change:<key>` for each, then `change` once. */
    set(key, value) {
      const changes = typeof key === 'object' ? key : { [key]: value };
      const changed = [];
      for (const [k, v] of Object.entries(changes)) {
        if (this[k] === v) continue;
        changed.push([k, v, this[k]]);
        this[k] = v;
      }
      for (const [k, v, previous] of changed) this.trigger(`change:${k}`, this, v, previous);
      if (changed.length > 0) this.trigger('change', this);
      return this;
    }
    serialize() {
      return { ...this };
    }
  }
  D.Model = Model;

  class Collection extends Emitter {
    constructor(modelClass = Model, keyOf = (model) => String(model.id)) {
      super();
      this.modelClass = modelClass;
      this.keyOf = keyOf;
      this.index = new Map();
    }
    get length() {
      return this.index.size;
    }
    get(key) {
      if (key === undefined || key === null) return undefined;
      return this.index.get(String(key));
    }
    add(model, options = {}) {
      const item = model instanceof Model ? model : new this.modelClass(model);
      const key = this.keyOf(item);
      if (this.index.has(key)) return this.index.get(key);
      this.index.set(key, item);
      parents.set(item, [...(parents.get(item) || []), this]);
      this.trigger('add', item, this, options);
      return item;
    }
    remove(model) {
      const key = typeof model === 'string' ? model : this.keyOf(model);
      const item = this.index.get(key);
      if (!item) return undefined;
      this.index.delete(key);
      parents.set(
        item,
        (parents.get(item) || []).filter((c) => c !== this),
      );
      this.trigger('remove', item, this);
      return item;
    }
    getModelsArray() {
      return [...this.index.values()];
    }
    serialize() {
      return this.getModelsArray().map((model) => model.serialize());
    }
    get _models() {
      return this.getModelsArray();
    }
  }
  D.Collection = Collection;

  /**
   * WhatsApp Web's errors: subclasses of `WACustomError.CustomError` whose classes the minifier
   * renames (`t`, `r`…), which set their own `name` and carry fields of their own (`status`,
   * `mediaType`…), e.g. WAWebMediaMmsV4Download's `NoEntryAfterRMR`. `D.customError(name, fields)`
   * makes one such class: its constructor is called `t`, whatever the error is.
   */
  class CustomError extends Error {}
  D.define('WACustomError', { CustomError });
  D.customError = (name, fields = {}) => {
    const t = class extends CustomError {
      constructor(message) {
        super(message ?? '');
        this.name = name;
        Object.assign(this, fields);
      }
    };
    Object.defineProperty(t, 'name', { value: 't' });
    return t;
  };

  D.sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  D.now = () => Math.floor(Date.now() / 1000);
  let seq = 0;
  /** Message ids like WhatsApp Web's own (`3EB0` + hex). */
  D.newMessageId = () =>
    `3EB0${(Date.now() % 1e10).toString(16).toUpperCase()}${(++seq).toString(16).toUpperCase().padStart(6, '0')}`;
})();
