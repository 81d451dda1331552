-- AlterTable
ALTER TABLE "Shop" ADD COLUMN     "renewalRule" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "repeatPolicies" TEXT NOT NULL DEFAULT '';

-- AlterTable
ALTER TABLE "OrderRecord" ADD COLUMN     "repeatKind" TEXT;

-- CreateTable
CREATE TABLE "ReferredCustomer" (
    "id" TEXT NOT NULL,
    "shop" TEXT NOT NULL,
    "customerKey" TEXT NOT NULL,
    "campaignUid" TEXT NOT NULL,
    "referrerEmail" TEXT,
    "orderId" TEXT NOT NULL,
    "referredAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ReferredCustomer_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "ReferredCustomer_shop_customerKey_campaignUid_key" ON "ReferredCustomer"("shop", "customerKey", "campaignUid");
