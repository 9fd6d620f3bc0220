export default function Home() {
  return <h1 className="p-8 text-3xl font-bold">Fast, reliable parcel delivery</h1>;
}
