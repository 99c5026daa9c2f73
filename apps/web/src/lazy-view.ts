import { type ComponentType, h } from 'preact';
import { useEffect, useState } from 'preact/hooks';

/**
 * A view whose code is a chunk of its own, fetched the first time the view is shown (the page's
 * first load does not carry it): until then, and if it cannot be fetched, a line says so.
 */
export function lazyView<P extends object>(
  load: () => Promise<ComponentType<P>>,
): ComponentType<P> {
  let loaded: ComponentType<P> | undefined;
  let loading: Promise<ComponentType<P>> | undefined;
  return function LazyView(props: P) {
    // Renders again once the code is here (a counter: a component given to useState would be
    // called as its initial value).
    const [, setShown] = useState(0);
    const [failed, setFailed] = useState(false);
    useEffect(() => {
      if (loaded) return;
      let mounted = true;
      loading ??= load().then((view) => {
        loaded = view;
        return view;
      });
      loading.then(
        () => mounted && setShown(1),
        () => {
          loading = undefined;
          if (mounted) setFailed(true);
        },
      );
      return () => {
        mounted = false;
      };
    }, []);
    if (loaded) return h(loaded, props);
    return h(
      'p',
      { class: 'meta', role: 'status' },
      failed ? 'This view could not be loaded: reload the page.' : 'Loading…',
    );
  };
}
