-- AlterTable
ALTER TABLE "Shop" ADD COLUMN     "shareLinkMetafield" BOOLEAN NOT NULL DEFAULT false;

-- CreateTable
CREATE TABLE "CustomerShareLink" (
    "id" TEXT NOT NULL,
    "shop" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "customerId" TEXT,
    "link" TEXT,
    "code" TEXT,
    "version" INTEGER NOT NULL DEFAULT 0,
    "detail" TEXT,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "CustomerShareLink_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "CustomerShareLink_shop_email_key" ON "CustomerShareLink"("shop", "email");
