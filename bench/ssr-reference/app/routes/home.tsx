/** A page with a loader and a little data: the minimal React Router SSR page of issue 12. */
export function loader() {
  return { title: 'Hello', items: ['one', 'two', 'three'] };
}

export function meta() {
  return [{ title: 'Reference' }];
}

export default function Home({ loaderData }: { loaderData: { title: string; items: string[] } }) {
  return (
    <main>
      <h1>{loaderData.title}</h1>
      <ul>
        {loaderData.items.map((item) => (
          <li key={item}>{item}</li>
        ))}
      </ul>
    </main>
  );
}
